/**
 * Seed data: the featured story worlds and the subscription tiers.
 *
 * World ids are fixed UUIDs (00000000-0000-4000-a000-0000000000NN) rather than
 * generated ones, because the landing page hard-codes four featured worlds and
 * each of its Explore buttons links to /worlds with a world id to auto-open.
 * The first four entries (01 Aethermoor, 02 Neon Requiem, 03 The Drowned
 * Expanse, 04 Hollowmere) are the ones those buttons point at, so their ids
 * must never change. Fixed ids also keep re-seeding idempotent.
 *
 * Descriptions stay under the 1200-character world description limit and use
 * each genre's natural vocabulary, because the storyteller infers the genre
 * from keywords in the description.
 */

type Genre =
  | 'high-fantasy'
  | 'dark-fantasy'
  | 'science-fiction'
  | 'space-opera'
  | 'cyberpunk'
  | 'horror'
  | 'post-apocalyptic'
  | 'western'
  | 'noir'
  | 'pirate'
  | 'steampunk'
  | 'mythic'
  | 'modern-urban';

export interface SeedWorld {
  id: string;
  name: string;
  genre: Genre;
  description: string;
  questions: string[];
}

export const FEATURED_WORLDS: readonly SeedWorld[] = [
  {
    id: '00000000-0000-4000-a000-000000000001',
    name: 'Aethermoor',
    genre: 'high-fantasy',
    description:
      'Aethermoor is a realm of floating isles bound to the earth by chains of living crystal, where dragons nest in the cloud-forests and wizards chart the tides of magic from the spires of the Argent Collegium. For a thousand years the Oathbound Kingdoms have kept the peace under the High Throne of Lys, but the Sunstone that anchors the isles is cracking, and whole provinces have begun to drift loose into the sky. Elven archivists of Silverwood whisper of an ancient prophecy; the dwarven clans beneath Mount Kharadun guard the only forges that can mend the stone; and the exiled sorceress Vaelith the Unbound gathers knights, rangers and sellswords who believe the old crown should fall with the isles. Quests, enchanted blades and heroic oaths will decide whether Aethermoor is saved, remade, or lost to the endless blue.',
    questions: [
      'Which floating isle of Aethermoor were you born on, and what did its people teach you?',
      'Do you serve the High Throne of Lys, follow Vaelith the Unbound, or walk your own road?',
      'What magic, weapon or craft have you mastered, and who taught it to you?',
      'What do you stand to lose if the Sunstone shatters?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000002',
    name: 'Neon Requiem',
    genre: 'cyberpunk',
    description:
      'Neon Requiem is the rain-soaked megacity of New Kowloon Arcology, stacked two hundred levels deep beneath holographic billboards and acid-grey skies. Three megacorps rule it: Hoshida Biotech, which owns the patents on every cybernetic heart; Castellan Security, whose drones enforce the curfews; and Veridian Data, which sells memories by the gigabyte. Below the chrome towers, street samurai with military implants, fixers in noodle bars and netrunners jacked into the Grid scrape a living from stolen code and black-market cyberware. The legendary hacker known only as Requiem has just vanished mid-heist, leaving behind a data shard that could crash the corporate network and free the city, or hand it to a rogue AI that has been waiting in the dark. Every augmentation has a price, every friend has a buyer, and the neon never goes out.',
    questions: [
      'Which level of New Kowloon Arcology did you grow up on, and how did you claw your way out of it?',
      'What cyberware implant do you rely on most, and what did it cost you?',
      'Are you a netrunner, street samurai, fixer, or something the megacorps have no name for?',
      'Which megacorp do you owe a debt to, and what happens if they collect?',
      'What would you do with the data shard Requiem left behind?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000003',
    name: 'The Drowned Expanse',
    genre: 'pirate',
    description:
      "The Drowned Expanse is an endless archipelago of sunken kingdoms, where the tide rises a fathom every year and the old capitals lie beneath turquoise water. Pirate crews sail between the last dry islands in patched galleons and swift sloops, raiding Admiralty convoys for rum, powder and fresh water. The port of Saltmarrow Haven is a lawless den of taverns, shipwrights and cutthroats governed by the Brethren Council, while the Crown Admiralty under Commodore Ashcombe hunts every buccaneer within cannon range. Captains trade whispers of the Leviathan's Crown, a treasure said to command the sea itself, hidden somewhere in the drowned city of Old Marisol. Cannon fire, mutiny, boarding parties and sea charts inked in blood will decide who claims the Expanse before the water claims everyone.",
    questions: [
      'Which island or sunken kingdom did your family come from before the tides took it?',
      'What is your post aboard ship: captain, quartermaster, gunner, navigator, or stowaway?',
      'Do you sail under the Brethren Council, serve the Crown Admiralty, or fly no flag at all?',
      "What would you do if you found the Leviathan's Crown?",
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000004',
    name: 'Hollowmere',
    genre: 'horror',
    description:
      'Hollowmere is a fog-bound moorland village gathered around a black lake that never freezes and never reflects the moon. Its gothic manor, Ravenscar Hall, has stood empty since the Ashworth family vanished in a single night, yet candles still burn in its windows. The villagers keep the old rites: salt on every threshold, mirrors turned to the wall, and no names spoken after dusk. In the crumbling chapel of Saint Ebba, Vicar Thorne preaches against the Drowned Choir, a whispering presence that calls from beneath the water and wears the faces of the dead. Each autumn someone walks into the mere, and each winter something walks back out. Dread, cursed bloodlines, haunted corridors and the slow unravelling of sanity are the true currencies of Hollowmere, and the lake is always hungry.',
    questions: [
      'What brought you to Hollowmere: an inheritance, a letter from the dead, or a debt to the Ashworths?',
      'Which voice from the Drowned Choir do you recognise, and whose face does it wear?',
      'What old rite or superstition do you keep, and what happened the one time you broke it?',
      'What is the fear you have never admitted to anyone?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000005',
    name: 'Cinderfall',
    genre: 'dark-fantasy',
    description:
      "Cinderfall is a dying kingdom beneath a sun that went dark a generation ago, lit now only by the embers of burning cities and the pale fires of necromancy. King Morvane of the Ashen Crown rules from the obsidian citadel of Dunmarrow, bargaining away his subjects' souls to the Hollow Court, a pantheon of demons who feed on grief. Plague-ridden villages pay their tithes in bone, witch-hunters of the Order of the Brand burn heretics and innocents alike, and in the Blackthorn Wastes the undead march under banners no one remembers. The only hope is the rumour of the Last Ember, a shard of the old sun hidden in the cursed ruins of Vael Sorrow, but every hand that has touched it has rotted. In Cinderfall mercy is a luxury, oaths are sealed in blood, and every victory costs something that never grows back.",
    questions: [
      'What did you lose on the day the sun went dark over Cinderfall?',
      'What forbidden pact, curse or dark gift have you accepted, and what does it demand of you?',
      'Do you hunt for the Order of the Brand, kneel to the Ashen Crown, or hide from both?',
      'Why do you seek the Last Ember when every hand that touched it has rotted?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000006',
    name: 'Throne of Nine Suns',
    genre: 'space-opera',
    description:
      'Throne of Nine Suns spans a galactic empire of ten thousand worlds, bound together by hyperspace lanes that only the Navigator Guild can chart. Empress Solenne IX rules from the Crystal Palace of Auris Prime, but her fleets are stretched thin: the Free Stars Rebellion raids imperial convoys along the Outer Rim, the insectile Vhor Hegemony masses warships beyond the Veil Nebula, and the great noble houses plot succession around her failing heart. Starships the size of cities duel in orbit, smugglers run blockades with forged transponders, and the psionic Starwardens swear oaths that bind them across lifetimes. Now a derelict dreadnought has dropped out of hyperspace carrying the lost heir to the throne, and every faction in the galaxy wants that heir alive, dead, or on their side. Loyalty, glory and the fate of the empire hang on a single jump.',
    questions: [
      'Which world of the empire do you call home, and which noble house or faction claims it?',
      'Are you a starship pilot, smuggler, soldier, diplomat, or psionic Starwarden in training?',
      'Do you fight for Empress Solenne, the Free Stars Rebellion, or only for your own crew?',
      'What would you do if the lost heir to the throne asked you for protection?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000007',
    name: 'Saltbone Crossing',
    genre: 'western',
    description:
      "Saltbone Crossing is a frontier boomtown at the edge of the Bitterwater Flats, where the railroad ends and the law runs thin. Silver was struck in the Widow's Teeth mountains three summers ago, and now prospectors, gamblers, drifters and gunslingers crowd the dusty main street between the Golden Spur Saloon and the undertaker's parlour. The Hargrove Cattle Company owns the water and wants the land; the Pale Rider gang robs every stagecoach headed east; and Marshal Eliza Crane holds the town together with one revolver and a handful of deputies she does not trust. Out past the mesas, the Red Canyon homesteaders guard a secret that could bring the railroad barons to their knees. Showdowns at high noon, cattle rustlers, posses riding at dusk and justice paid for in lead will decide who owns the Crossing when the dust settles.",
    questions: [
      'What brought you out to the frontier at Saltbone Crossing, and what are you running from?',
      'Are you quicker with a revolver, a rifle, a deck of cards, or a silver tongue?',
      'Do you ride with Marshal Crane, take wages from the Hargrove Cattle Company, or answer to the Pale Rider gang?',
      'Whose name is carved on the grave you visit outside of town?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000008',
    name: 'Ironveil',
    genre: 'steampunk',
    description:
      'Ironveil is a soot-stained imperial capital of brass towers, clockwork trams and dirigible docks, powered by the great boiler engines that hiss beneath every street. Victorian in manners and ruthless in industry, the city is run by the Guild of Gearwrights and the aristocratic Steam Lords of Parliament, who grow rich while the workhouses of Smokefen choke on coal dust. Inventors race to patent ever stranger contraptions, sky-pirates raid cargo airships above the Copperline, and the automaton servants of Lady Ada Quillfeather have begun, impossibly, to ask questions. When the Grand Calculator, the colossal difference engine that computes every tax and train timetable in the city, predicts its own destruction in thirty days, gearwrights, anarchists, constables and gentleman adventurers scramble to learn who wound the clock, and why.',
    questions: [
      'Were you raised among the Steam Lords, in the Smokefen workhouses, or somewhere in between?',
      'What invention, gadget or clockwork device do you never leave home without?',
      'Do you owe your loyalty to the Guild of Gearwrights, the anarchists, or the airship crews?',
      'What do you believe the automatons of Ironveil truly want?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000009',
    name: 'The Long Static',
    genre: 'post-apocalyptic',
    description:
      "The Long Static is what survivors call the wasteland left after the Collapse, when the bombs fell and every radio on Earth began to hiss with the same endless noise. Seventy years on, scavengers pick through irradiated ruins for canned food, ammunition and working batteries, while mutated beasts roam the glass deserts that were once cities. The fortified settlement of Haven's Gate trades clean water for protection from the Rust Barons, a warlord convoy that rules the highways in armoured trucks. Deep in the sealed Deepwell Bunker, the Archivists hoard pre-war technology and decide who is worthy of it. Now the static has begun to change, forming words and coordinates, and every faction in the wastes is racing toward the source of the signal. Survival, scarce fuel, radiation sickness and hard choices about whom to trust define life after the end.",
    questions: [
      'Where did you survive your childhood in the wasteland: a settlement, a bunker, or the open road?',
      'What piece of pre-war gear do you carry, and how did you get it?',
      "Do you trade with Haven's Gate, ride with the Rust Barons, or seek the Archivists of Deepwell?",
      'What do you hear in the static that no one else seems to?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000010',
    name: 'Thessarion',
    genre: 'mythic',
    description:
      'Thessarion is an age of heroes across a wine-dark sea of sacred islands, where the gods still walk among mortals in borrowed shapes and every life is woven on the loom of the Fate-Spinners. From the marble summit of Mount Olyra, the pantheon of the Twelve Thrones quarrels over mortal worship, and their quarrels become wars, plagues and golden ages below. Now the Oracle of Delmara has spoken a new prophecy: the titan Kronax, chained beneath the sea since the dawn of time, will rise when a demigod betrays a divine parent. Heroes seek blessings from temple priests, wrestle monsters for enchanted relics, and sail to the gates of the Underworld at Asphodane to bargain with the dead. Glory is immortal, hubris is always punished, and the gods are watching to see which mortal will defy destiny.',
    questions: [
      'Which god of the Twelve Thrones is your divine parent or patron, and do they favour you?',
      'What omen marked your birth, and how did the Oracle of Delmara interpret it?',
      'What heroic labour or quest have you sworn before the gods to complete?',
      'What would you sacrifice to change the fate the Fate-Spinners wove for you?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000011',
    name: 'Lowlight',
    genre: 'noir',
    description:
      'Lowlight is a rain-slick harbour city in the winter of 1947, where the streetlamps never reach the gutters and every cop has a price. Private eyes work out of cramped offices above pawnshops, chasing cheating spouses and missing heirs through jazz clubs, gambling dens and smoke-filled speakeasies that never closed after Prohibition. The Moretti crime family runs the docks, Councilman Harlan Voss runs the Morettis, and Police Chief Dunmore looks the other way for a fee. Then a torch singer from the Blue Orchid Club turns up dead in the harbour with a ledger that could bring down half of city hall, and suddenly everyone from mob enforcers to femmes fatales to crooked detectives wants it found, or buried. In Lowlight the truth is a dirty business, trust is a bad bet, and nobody walks away clean.',
    questions: [
      'Are you a private eye, a beat cop, a reporter, a mob soldier, or a singer at the Blue Orchid Club?',
      'What case, mistake or betrayal still keeps you awake at night in Lowlight?',
      'Who in this city owns a piece of you: the Moretti family, Councilman Voss, or someone worse?',
      'What did the dead torch singer mean to you?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000012',
    name: 'Perihelion',
    genre: 'science-fiction',
    description:
      "Perihelion is a colossal generation ship three hundred years into its voyage toward the exoplanet Tau Verity, home to twelve thousand colonists who have never seen a sky. Its rotating habitat rings are governed by the ship's artificial intelligence, CALYX, and by the Helm Council, a hereditary caste of engineers who alone can read the failing reactor logs. In the hydroponic decks the Seedkeepers ration food by genetic lottery; in the zero-gravity spine, salvage crews in patched vacuum suits repair hull breaches no one admits are getting worse. Now the long-range sensors have detected a signal from Tau Verity, artificial and unmistakably answering the ship's own transmissions. Science, survival and the ethics of first contact collide as factions argue whether to arrive, turn back, or wake the cryogenic founders sleeping in the Deep Vault.",
    questions: [
      'Which habitat ring or deck of the Perihelion were you born on, and what was your assigned role?',
      'What scientific or technical skill keeps you useful aboard the ship?',
      'Do you trust CALYX, the Helm Council, the Seedkeepers, or none of them?',
      'Should the ship answer the signal from Tau Verity, and what are you willing to risk to decide?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000013',
    name: 'Harrow Street',
    genre: 'modern-urban',
    description:
      'Harrow Street is the forgotten heart of Port Carrow, a modern coastal city of glass office towers, late-night diners, rattling subway lines and overpriced apartments where rent is due on the first and secrets come due at midnight. Beneath the everyday hum of traffic, smartphones and street festivals, an unseen city thrives: fae landlords who collect debts in memories, a coven of baristas who read fortunes in coffee foam, and the Nightshift, an unofficial network of cab drivers, paramedics and hackers who patch the cracks between worlds. The real-estate empire of Sterling and Vane is buying up whole blocks around Harrow Street and bulldozing the old wards that keep the city stable, and strange things have started trending on social media. Between rooftop parties and police sirens, ordinary people must decide whether to look away or step into the magic downtown.',
    questions: [
      'What do you do for a living in Port Carrow, and how do you pay the rent?',
      'When did you first notice the hidden side of Harrow Street, and what did you see?',
      'Do you ride with the Nightshift, owe a favour to the fae landlords, or work for Sterling and Vane?',
      'Which place in the city feels like home, and what would you do to keep it from being bulldozed?',
    ],
  },
  {
    id: '00000000-0000-4000-a000-000000000014',
    name: 'The Glass Reef',
    genre: 'science-fiction',
    description:
      "The Glass Reef is a research station anchored beneath forty kilometres of ice on the ocean moon Nerea, where scientists study the first alien life humanity has ever found. The luminous Reef organisms grow in fractal colonies around volcanic vents and appear to compute, rearranging themselves into patterns that predict the crew's experiments before they happen. Director Imani Oduya of the Tidewell Institute insists on careful study; the Ascendancy Combine, which funded the station, wants patents and bioweapons; and the Reclaimers, a movement of xenobiologists, believe the Reef is sentient and must be protected at any cost. Submersibles, gene sequencers, failing pressure hulls and a ninety-minute signal lag from Earth make every decision final. Something in the deep is learning fast, and it has started to answer back.",
    questions: [
      'What is your specialty aboard the Glass Reef station: xenobiology, engineering, security, or piloting submersibles?',
      'Who sent you to Nerea: the Tidewell Institute, the Ascendancy Combine, or the Reclaimers?',
      'Do you believe the Reef is intelligent, and what would you do to prove it?',
      'What did you leave behind on Earth that the signal lag keeps you from reaching?',
    ],
  },
];

export interface SeedTier {
  id: string;
  name: string;
  priceCents: number;
  monthlyCredits: number;
  maxContextTokens: number;
  description: string;
  features: string[];
  sortOrder: number;
}

export const TIERS: readonly SeedTier[] = [
  {
    id: 'free',
    name: 'Free',
    priceCents: 0,
    monthlyCredits: 10,
    maxContextTokens: 2000,
    description: 'Try Taleforge at no cost with a small monthly allowance of credits.',
    features: [
      '10 credits per month',
      '2k story memory',
      'Browse and play every featured world',
      'Character generation and world creation cost 3 credits each',
    ],
    sortOrder: 0,
  },
  {
    id: 'adventurer',
    name: 'Adventurer',
    priceCents: 499,
    monthlyCredits: 100,
    maxContextTokens: 8000,
    description: 'For regular players who want more characters and longer-remembered stories.',
    features: [
      '100 credits per month',
      '8k story memory',
      'Enough for 33 new characters or worlds a month (3 credits each)',
      'Stories remember four times more than on Free',
    ],
    sortOrder: 1,
  },
  {
    id: 'hero',
    name: 'Hero',
    priceCents: 999,
    monthlyCredits: 300,
    maxContextTokens: 16000,
    description: 'For dedicated storytellers running several campaigns at once.',
    features: [
      '300 credits per month',
      '16k story memory',
      'Enough for 100 new characters or worlds a month (3 credits each)',
      'Richer continuity across long stories',
    ],
    sortOrder: 2,
  },
  {
    id: 'legend',
    name: 'Legend',
    priceCents: 1999,
    monthlyCredits: 1000,
    maxContextTokens: 32000,
    description: 'The deepest story memory and the biggest credit allowance for epic sagas.',
    features: [
      '1000 credits per month',
      '32k story memory',
      'Enough for 333 new characters or worlds a month (3 credits each)',
      'Best continuity across long campaigns',
    ],
    sortOrder: 3,
  },
];
