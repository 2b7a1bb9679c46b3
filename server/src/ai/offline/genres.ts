/**
 * What the offline storyteller knows about each genre: how to recognise it in a world description,
 * the words it writes in (places, weather, dangers, people, objects), how it names people and places
 * when the world does not, and the palette/motifs of its pictures and immersive styles.
 */

export type GenreId =
  | 'highFantasy'
  | 'darkFantasy'
  | 'sciFi'
  | 'spaceOpera'
  | 'cyberpunk'
  | 'horror'
  | 'postApocalyptic'
  | 'western'
  | 'noir'
  | 'pirate'
  | 'steampunk'
  | 'mythic'
  | 'urban';

export type Motif =
  | 'mountains'
  | 'castle'
  | 'pines'
  | 'deadTrees'
  | 'skyline'
  | 'neonSkyline'
  | 'planet'
  | 'stars'
  | 'mesas'
  | 'ships'
  | 'chimneys'
  | 'temple'
  | 'ruins'
  | 'dunes'
  | 'waves'
  | 'moon'
  | 'domes'
  | 'airships'
  | 'starships';

export interface Genre {
  id: GenreId;
  label: string;
  /** Lower-case words/phrases; each hit in the description scores 1 (multi-word phrases score 2). */
  keywords: string[];
  places: string[];
  sky: string[];
  sensory: string[];
  threats: string[];
  allies: string[];
  artifacts: string[];
  /** What the genre calls the extraordinary: "magic", "tech", "nerve"… used in specials and prose. */
  power: string;
  specialNouns: string[];
  oaths: string[];
  firstNames: string[];
  lastNames: string[];
  placeStarts: string[];
  placeEnds: string[];
  factions: string[];
  /** Mission templates; {artifact} {ally} {place} {placeName} {threat} {faction} {npc} are filled. */
  missions: string[];
  /** Image palette: sky top, sky horizon, far land, near land, silhouette, light/accent. */
  palette: { skyTop: string; skyHorizon: string; far: string; near: string; silhouette: string; light: string };
  motifs: Motif[];
  /** Index into FONT_STACKS (style-guard.ts). */
  font: number;
}

export const GENRES: readonly Genre[] = [
  {
    id: 'highFantasy',
    label: 'high fantasy',
    keywords: ['elf', 'elves', 'dwarf', 'dwarves', 'wizard', 'dragon', 'kingdom', 'realm', 'sword', 'quest', 'magic', 'mage', 'spell', 'enchanted', 'sorcer', 'knight', 'castle', 'prophecy', 'wand', 'mana', 'orc', 'fae', 'throne', 'high fantasy', 'ancient magic'],
    places: ['the old stone bridge', 'the market square', 'the elven groves', 'the kingsroad', 'the watchtower on the ridge', 'the moss-grown shrine', 'the great hall', 'the river ford', 'the wizard\'s library', 'the border keep'],
    sky: ['a pale gold sun climbed over the hills', 'banners snapped in a bright westerly wind', 'twin moons hung low and silver', 'clouds piled like castles over the mountains', 'the evening sky burned amber and rose'],
    sensory: ['the smell of woodsmoke and baking bread', 'the chime of distant temple bells', 'the hum of old wards in the stones', 'pine resin on the cool air', 'the clatter of hooves on cobbles'],
    threats: ['a band of orc raiders', 'a young wyvern', 'the Warden\'s hired blades', 'a cursed knight', 'a troll who guarded the toll road', 'goblins with stolen lanterns'],
    allies: ['an elven ranger', 'a dwarven smith', 'a hedge-wizard', 'a wandering bard', 'a retired knight', 'a priestess of the dawn'],
    artifacts: ['a rune-carved key', 'the lost crown shard', 'a dragon-scale map', 'a silver harp string', 'an oath-ring of the old kings', 'a staff of blackthorn'],
    power: 'magic',
    specialNouns: ['Ward', 'Sigil', 'Blessing', 'Oath', 'Song', 'Flame'],
    oaths: ['By the Seven Stars', 'Light preserve us', 'By the old gods'],
    firstNames: ['Aldric', 'Elowen', 'Thorin', 'Maelis', 'Caelan', 'Ysolde', 'Rowan', 'Isadora', 'Bram', 'Seraphine'],
    lastNames: ['Brightwater', 'Stoneheart', 'of the Vale', 'Ravensong', 'Oakenshield', 'Silverleaf'],
    placeStarts: ['Eld', 'Sil', 'Thar', 'Mor', 'Ael', 'Dun', 'Vyr', 'Cael'],
    placeEnds: ['dor', 'mere', 'wyn', 'hold', 'vale', 'thas', 'gard', 'ion'],
    factions: ['the Silver Council', 'the Order of the Dawn', 'the Free Cantons', 'the Dragonwatch'],
    missions: ['Recover {artifact} from {placeName}', 'Escort {ally} safely to {placeName}', 'Drive {threat} out of {place}', 'Earn the trust of {faction}', 'Find out who stole {artifact}'],
    palette: { skyTop: '#3b6fb6', skyHorizon: '#f5c57a', far: '#6d83a8', near: '#3f6b45', silhouette: '#1f2f2a', light: '#fff1c1' },
    motifs: ['mountains', 'castle', 'pines'],
    font: 2,
  },
  {
    id: 'darkFantasy',
    label: 'dark fantasy',
    keywords: ['blood', 'curse', 'cursed', 'grim', 'necromancer', 'undead', 'witch', 'plague', 'rot', 'corrupt', 'fallen', 'blight', 'demon', 'ash', 'grimdark', 'dark fantasy', 'bleak', 'sacrifice', 'shadow', 'tyrant', 'wraith'],
    places: ['the gallows crossroads', 'the burned chapel', 'the bone-white causeway', 'the plague quarter', 'the drowned abbey', 'the black keep', 'the charnel fields', 'the thornwood'],
    sky: ['a bruised sky pressed down on the land', 'ash fell slow as snow', 'the sun was a dull coin behind smoke', 'crows wheeled under iron-grey cloud', 'a blood-red moon rose early'],
    sensory: ['the stink of tallow and old blood', 'a bell tolling for the dead', 'wet ash underfoot', 'the creak of a gibbet chain', 'whispers that came from no throat'],
    threats: ['a pack of blight-hounds', 'the Inquisitor\'s riders', 'a hungering wraith', 'grave-robbers with rusted knives', 'a witch-queen\'s thralls', 'something wearing a dead man\'s face'],
    allies: ['a disgraced templar', 'a plague doctor', 'a one-eyed sellsword', 'a hedge-witch who asked no questions', 'a gravedigger\'s daughter', 'a defrocked priest'],
    artifacts: ['a reliquary of blackened silver', 'the bone key', 'a blade that drinks light', 'a page from the Codex of Thorns', 'a vial of saint\'s ashes', 'a ring of the hanged king'],
    power: 'blood-craft',
    specialNouns: ['Hex', 'Covenant', 'Rite', 'Mark', 'Ember', 'Pact'],
    oaths: ['Saints rot', 'Ashes and bone', 'Gods have mercy, for no one else will'],
    firstNames: ['Morwen', 'Ulric', 'Vesna', 'Corvin', 'Isolde', 'Garran', 'Sabine', 'Hask', 'Ilse', 'Draven'],
    lastNames: ['Ashgrave', 'the Hollow', 'Blackbriar', 'Thorne', 'Vael', 'Grimsby'],
    placeStarts: ['Gral', 'Mor', 'Vex', 'Drah', 'Skel', 'Ruth', 'Khar', 'Nidd'],
    placeEnds: ['mire', 'moor', 'hollow', 'fen', 'gate', 'reach', 'barrow', 'wick'],
    factions: ['the Ashen Inquisition', 'the Pale Covenant', 'the Hanged Brotherhood', 'the Thorn Court'],
    missions: ['Burn the relic hidden in {placeName}', 'Find the cure before {placeName} falls to the plague', 'Break the curse laid on {npc}', 'Hunt {threat} back to its lair', 'Smuggle {artifact} past {faction}'],
    palette: { skyTop: '#2a1e2b', skyHorizon: '#8a3b2e', far: '#3f3440', near: '#221b20', silhouette: '#0e0a0d', light: '#e0684b' },
    motifs: ['deadTrees', 'castle', 'moon'],
    font: 3,
  },
  {
    id: 'sciFi',
    label: 'science fiction',
    keywords: ['science', 'scientist', 'laboratory', 'lab', 'research', 'colony', 'colonist', 'android', 'robot', 'ai', 'quantum', 'experiment', 'terraform', 'orbital', 'station', 'future', 'mars', 'clone', 'genetic', 'time travel', 'science fiction', 'sci-fi', 'drone', 'reactor'],
    places: ['the hydroponics bay', 'the airlock corridor', 'the observation deck', 'the research lab', 'the reactor gallery', 'the dust plains outside the dome', 'the server vault', 'the mag-rail platform'],
    sky: ['a thin pink sky arched over the dome', 'the planet\'s two suns slid toward the horizon', 'dust storms crawled along the skyline', 'the ring of the orbital station glinted overhead', 'the sky was a hard, airless black'],
    sensory: ['the hum of air scrubbers', 'the tang of ozone', 'recycled air that tasted of metal', 'the soft chirp of a diagnostics panel', 'the click of magnetic boots'],
    threats: ['a rogue maintenance drone', 'a containment breach', 'corporate security in grey armour', 'a failing reactor', 'an AI that had stopped answering', 'a mutated specimen'],
    allies: ['a xenobiologist', 'a tired station medic', 'a maintenance android', 'a colony engineer', 'a data archivist', 'a pilot with a cracked visor'],
    artifacts: ['an encrypted data core', 'a prototype fusion cell', 'the colony\'s original charter', 'a sample case marked QUARANTINE', 'a neural map', 'a signal decoder'],
    power: 'tech',
    specialNouns: ['Protocol', 'Override', 'Interface', 'Algorithm', 'Field', 'Link'],
    oaths: ['Stars and static', 'Vacuum take it', 'By all the physics we know'],
    firstNames: ['Juno', 'Anik', 'Tessa', 'Ravi', 'Oksana', 'Kenji', 'Noor', 'Elias', 'Mira', 'Tobias'],
    lastNames: ['Okafor', 'Lindqvist', 'Reyes', 'Haldane', 'Sato', 'Vance'],
    placeStarts: ['Ker', 'Ares', 'Tycho', 'Nova', 'Hel', 'Cyg', 'Vega', 'Lyr'],
    placeEnds: [' Station', ' Base', '-9', ' Prime', ' Outpost', ' Dome', ' Array', ' Deep'],
    factions: ['the Colonial Authority', 'Helix Biotech', 'the Survey Corps', 'the Free Settlers'],
    missions: ['Restore power to {placeName}', 'Recover {artifact} before the next dust storm', 'Find out what happened to the crew of {placeName}', 'Shut down {threat}', 'Deliver {artifact} to {faction}'],
    palette: { skyTop: '#12263f', skyHorizon: '#e58f6f', far: '#8c5a4a', near: '#5a3a32', silhouette: '#1b1a22', light: '#a9f0ff' },
    motifs: ['planet', 'mesas', 'domes'],
    font: 6,
  },
  {
    id: 'spaceOpera',
    label: 'space opera',
    keywords: ['galaxy', 'galactic', 'empire', 'starship', 'fleet', 'admiral', 'hyperspace', 'warp', 'alien', 'aliens', 'planets', 'star system', 'space opera', 'rebellion', 'senate', 'starfighter', 'nebula', 'interstellar', 'spaceship', 'smuggler', 'federation', 'space'],
    places: ['the bridge of the flagship', 'the crowded spaceport cantina', 'the hangar deck', 'the throne-world\'s grand concourse', 'the asteroid shipyards', 'the smugglers\' moon', 'the embassy ring', 'the engine room'],
    sky: ['a violet nebula filled half the sky', 'starships crossed the sky like slow comets', 'the gas giant rose enormous and banded', 'hyperspace lanes glittered overhead', 'three moons stood in a crooked line'],
    sensory: ['the thrum of the hyperdrive', 'engine grease and alien spices', 'the hiss of blast doors', 'a dozen languages arguing at once', 'the whine of charging cannons'],
    threats: ['an Imperial boarding party', 'a bounty hunter with a long memory', 'pirate corsairs out of the nebula', 'a dreadnought on an intercept course', 'a rival house\'s assassins', 'a swarm of hunter drones'],
    allies: ['a smuggler captain', 'an exiled prince', 'a four-armed mechanic', 'a senator\'s aide', 'a veteran starfighter pilot', 'a soft-spoken alien diplomat'],
    artifacts: ['the stolen navigation codes', 'a star-chart to a lost world', 'the heir\'s signet', 'a crystal of the Precursors', 'the fleet\'s launch keys', 'a cargo hold of contraband'],
    power: 'starpower',
    specialNouns: ['Gambit', 'Maneuver', 'Resonance', 'Command', 'Blink', 'Edict'],
    oaths: ['By the Core Worlds', 'Stars burn me', 'Sweet void'],
    firstNames: ['Kael', 'Zara', 'Orin', 'Lyssa', 'Dex', 'Talia', 'Varo', 'Senna', 'Rhys', 'Imra'],
    lastNames: ['Solari', 'Venn', 'Darkstar', 'Quell', 'Ardent', 'Moros'],
    placeStarts: ['Cor', 'Zan', 'Ith', 'Val', 'Ory', 'Tal', 'Xan', 'Pell'],
    placeEnds: ['ax', 'ion', 'ara', 'us Prime', 'eth', 'ora', 'yx', 'is'],
    factions: ['the Stellar Dominion', 'the Free Worlds Alliance', 'House Veyra', 'the Smugglers\' Compact'],
    missions: ['Deliver {artifact} to the rebels at {placeName}', 'Break {ally} out of the prison barge above {placeName}', 'Outrun {threat} and reach {placeName}', 'Win {faction} over to the cause', 'Steal {artifact} from the Dominion vaults'],
    palette: { skyTop: '#07061a', skyHorizon: '#5b2a86', far: '#2c2057', near: '#1a1436', silhouette: '#05040d', light: '#ffd27a' },
    motifs: ['stars', 'planet', 'starships'],
    font: 9,
  },
  {
    id: 'cyberpunk',
    label: 'cyberpunk',
    keywords: ['cyber', 'cyberpunk', 'neon', 'hacker', 'hack', 'netrunner', 'megacorp', 'corporation', 'implant', 'augment', 'chrome', 'megacity', 'cyberspace', 'virtual', 'dystopia', 'gang', 'data', 'street samurai', 'synth', 'holo', 'arcology'],
    places: ['the noodle bar under the mag-rail', 'the black-market clinic', 'the corp tower lobby', 'the flooded lower levels', 'a rooftop antenna farm', 'the data-haven', 'the night market', 'the abandoned arcade'],
    sky: ['acid rain hissed on neon signs', 'advertising blimps drifted through the smog', 'the sky was the colour of a dead screen', 'searchlights raked the low clouds', 'the city glowed pink and cyan to the horizon'],
    sensory: ['the smell of wet asphalt and frying oil', 'bass thudding through concrete', 'the buzz of a failing neon tube', 'the static taste of a cheap implant', 'a drone\'s whine overhead'],
    threats: ['Arasaka-grade security', 'a chromed-up gang enforcer', 'black ICE', 'a corp fixer\'s cleanup crew', 'a police drone swarm', 'a rogue AI'],
    allies: ['a street doc', 'a netrunner who never slept', 'a fixer with an open tab', 'a burned-out corp exec', 'a kid who knew the vents', 'a synth bartender'],
    artifacts: ['a stolen data shard', 'a prototype neural chip', 'the access codes to the tower', 'a black credstick', 'a corrupted memory file', 'a military-grade cyberdeck'],
    power: 'chrome',
    specialNouns: ['Exploit', 'Overclock', 'Ghost Protocol', 'Glitch', 'Backdoor', 'Sync'],
    oaths: ['Flatline me', 'Chrome and circuits', 'Zero and one'],
    firstNames: ['Vex', 'Kira', 'Jax', 'Nyx', 'Rook', 'Sable', 'Ozzy', 'Mei', 'Tamsin', 'Deck'],
    lastNames: ['Nakamura', 'Cross', 'Volkov', 'Kade', 'Ortega', 'Zero'],
    placeStarts: ['Neo ', 'Sector ', 'Kowloon ', 'Shin ', 'Mega ', 'Low ', 'Chiba ', 'Iron '],
    placeEnds: ['Tokyo', 'Seven', 'Nine', 'Harbor', 'Plex', 'Town', 'Sprawl', 'Heights'],
    factions: ['Kessler-Mori Dynamics', 'the Tiger Claws', 'the Free Net Collective', 'the Municipal Enforcement Bureau'],
    missions: ['Steal {artifact} from {faction}', 'Get {ally} out of {placeName} before the corps find them', 'Trace who put out the bounty on {npc}', 'Jack into {place} and wipe the police records', 'Survive a night in {placeName} with {threat} in pursuit'],
    palette: { skyTop: '#0d0221', skyHorizon: '#ff2a6d', far: '#261447', near: '#1a0f2e', silhouette: '#07020f', light: '#05d9e8' },
    motifs: ['neonSkyline', 'skyline'],
    font: 5,
  },
  {
    id: 'horror',
    label: 'horror',
    keywords: ['horror', 'haunted', 'ghost', 'terror', 'nightmare', 'monster', 'creature', 'eldritch', 'asylum', 'occult', 'cult', 'possessed', 'fear', 'dread', 'scream', 'cosmic horror', 'lovecraft', 'whisper', 'fog', 'mansion', 'unspeakable'],
    places: ['the boarded-up farmhouse', 'the asylum\'s east wing', 'the flooded cellar', 'the church with the broken steeple', 'the woods behind the motel', 'the attic', 'the lighthouse at the end of the point', 'the hospital\'s closed ward'],
    sky: ['fog rolled in off the water and did not lift', 'the moon hid behind thin, fast clouds', 'a wrong kind of silence lay over the town', 'the streetlights flickered one by one', 'dusk came an hour too early'],
    sensory: ['a smell like wet earth and pennies', 'scratching inside the walls', 'a music box playing somewhere below', 'breath fogging in a warm room', 'footsteps that stopped when they stopped'],
    threats: ['the thing in the water', 'a congregation that never blinked', 'the man with no face', 'something that wore the caretaker\'s coat', 'a hunger that moved through the vents', 'the whispering dark'],
    allies: ['a chain-smoking priest', 'a local historian', 'a nurse who had seen too much', 'a frightened child', 'a skeptical deputy', 'a medium who hated her gift'],
    artifacts: ['a diary with the last pages torn out', 'an old photograph that changed', 'a brass key that was always cold', 'a reel of film no one would watch twice', 'a wax-sealed letter', 'a doll with stitched eyes'],
    power: 'the sight',
    specialNouns: ['Sense', 'Ward', 'Resolve', 'Litany', 'Candle', 'Instinct'],
    oaths: ['God help us', 'Don\'t look back', 'Lord have mercy'],
    firstNames: ['Agnes', 'Silas', 'Edith', 'Walter', 'Clara', 'Jonah', 'Mabel', 'Ezra', 'Ruth', 'Harlan'],
    lastNames: ['Blackwood', 'Crane', 'Ashby', 'Hollis', 'Marsh', 'Whateley'],
    placeStarts: ['Raven', 'Hollow', 'Grey', 'Black', 'Still', 'Wither', 'Cold', 'Mourn'],
    placeEnds: ['brook', ' Falls', 'haven', 'field', ' Point', 'moor', 'wood', ' Creek'],
    factions: ['the Order of the Closed Eye', 'the town council', 'the Esoteric Society', 'the lodge on Mill Street'],
    missions: ['Find out what happened to {npc}', 'Survive until dawn in {place}', 'Seal the door beneath {placeName}', 'Destroy {artifact} before the next new moon', 'Get everyone out of {placeName}'],
    palette: { skyTop: '#111417', skyHorizon: '#4a5759', far: '#2b3236', near: '#161a1c', silhouette: '#050607', light: '#c9d6b8' },
    motifs: ['deadTrees', 'moon', 'ruins'],
    font: 1,
  },
  {
    id: 'postApocalyptic',
    label: 'post-apocalyptic',
    keywords: ['apocalypse', 'post-apocalyptic', 'wasteland', 'fallout', 'nuclear', 'radiation', 'survivor', 'survivors', 'ruins', 'scavenger', 'raider', 'collapse', 'zombie', 'mutant', 'bunker', 'scavenge', 'aftermath', 'after the bombs', 'dust'],
    places: ['the collapsed overpass', 'the scrap market', 'the dead mall', 'the dry riverbed', 'the old water tower', 'the bunker entrance', 'the highway graveyard of rusted cars', 'the radio station on the hill'],
    sky: ['a yellow haze hid the sun', 'the wind carried grit and the smell of rust', 'the sky burned orange at the edges', 'a dust front rolled in from the west', 'the stars were sharp and cold above the dead cities'],
    sensory: ['the crackle of a Geiger counter', 'diesel fumes and burnt rubber', 'wind keening through broken glass', 'the taste of boiled water', 'a dog barking far off'],
    threats: ['a raider war-band', 'a pack of mutated dogs', 'a radiation storm', 'slavers in patched armour', 'the Eaters', 'a warlord\'s outriders'],
    allies: ['a scavenger with a shopping cart', 'an old mechanic', 'a wandering medic', 'a caravan guard', 'a kid born after the fall', 'a former soldier'],
    artifacts: ['a working water purifier', 'a sealed seed vault key', 'a map of the old tunnels', 'a crate of antibiotics', 'a functioning radio', 'a jerrycan of clean fuel'],
    power: 'grit',
    specialNouns: ['Instinct', 'Rig', 'Jury-Rig', 'Scavenge', 'Last Stand', 'Tracker'],
    oaths: ['Dust and bones', 'Rust take it', 'Not today'],
    firstNames: ['Ash', 'Cole', 'Rena', 'Tank', 'Mags', 'Dutch', 'Wren', 'Boone', 'Lark', 'Sarge'],
    lastNames: ['Rook', 'Cinder', 'Hollow', 'Tucker', 'Kane', 'Marlow'],
    placeStarts: ['Rust', 'Dust', 'Bone', 'Scrap', 'Salt', 'Dead', 'Cinder', 'Dry'],
    placeEnds: ['town', ' Flats', 'water', ' Crossing', 'heap', ' Hollow', ' Springs', 'burg'],
    factions: ['the Iron Caravan', 'the Bunker Folk', 'the Red Road Raiders', 'the Last Republic'],
    missions: ['Bring {artifact} back to {placeName}', 'Guide {ally} across the wastes to {placeName}', 'Find clean water for {placeName}', 'Keep {threat} from taking {place}', 'Strike a deal with {faction}'],
    palette: { skyTop: '#6b5a3e', skyHorizon: '#e0a458', far: '#8a6e4b', near: '#5b4630', silhouette: '#231b12', light: '#ffd98e' },
    motifs: ['ruins', 'dunes', 'skyline'],
    font: 9,
  },
  {
    id: 'western',
    label: 'western',
    keywords: ['western', 'cowboy', 'sheriff', 'outlaw', 'frontier', 'saloon', 'ranch', 'revolver', 'gunslinger', 'desert', 'prairie', 'railroad', 'bounty', 'wild west', 'horse', 'stagecoach', 'marshal', 'gold rush', 'canyon', 'mesa'],
    places: ['the saloon on Front Street', 'the livery stable', 'the sheriff\'s office', 'the dry creek bed', 'the railroad water stop', 'the mission ruins', 'the canyon pass', 'the homestead at the edge of town'],
    sky: ['the sun hammered the flats white', 'a hawk turned slow circles overhead', 'dust devils walked across the plain', 'the sky went copper and then purple', 'thunderheads stacked up over the mesas'],
    sensory: ['the creak of saddle leather', 'a piano playing slightly out of tune', 'the smell of sage and horse sweat', 'spurs ringing on boards', 'a train whistle far across the flats'],
    threats: ['the Dalton gang', 'a bounty hunter with a grudge', 'a railroad baron\'s hired guns', 'a rattlesnake in the rocks', 'a crooked deputy', 'a stampede'],
    allies: ['a one-armed blacksmith', 'a card sharp', 'the widow who runs the boarding house', 'a Pinkerton agent', 'a trail cook', 'a young deputy'],
    artifacts: ['a deed to the silver claim', 'a stolen strongbox', 'a wanted poster with the wrong face', 'a pocket watch with a bullet dent', 'a map to the lost mine', 'a letter from back east'],
    power: 'nerve',
    specialNouns: ['Quickdraw', 'Dead Eye', 'Grit', 'Trailcraft', 'Bluff', 'Steady Hand'],
    oaths: ['Well, I\'ll be', 'Lord almighty', 'Hell\'s bells'],
    firstNames: ['Wyatt', 'Clementine', 'Jesse', 'Abigail', 'Cody', 'Hattie', 'Eli', 'Josephine', 'Amos', 'Lucinda'],
    lastNames: ['McCready', 'Holloway', 'Barlow', 'Cassidy', 'Whitaker', 'Dunn'],
    placeStarts: ['Tomb', 'Dead', 'Silver', 'Red', 'Dry', 'Copper', 'Lone', 'Rattle'],
    placeEnds: ['stone', 'wood Gulch', ' Creek', ' Rock', ' Springs', ' Mesa', ' Gulch', 'snake Flats'],
    factions: ['the Union Pacific men', 'the Dalton gang', 'the Cattlemen\'s Association', 'the territorial marshals'],
    missions: ['Bring {npc} to justice in {placeName}', 'Protect {placeName} from {threat}', 'Recover {artifact}', 'Ride the stage safely to {placeName}', 'Prove to {faction} that the accusation is false'],
    palette: { skyTop: '#4f86c6', skyHorizon: '#f6b26b', far: '#c2754a', near: '#a0522d', silhouette: '#3b2416', light: '#fff0c2' },
    motifs: ['mesas', 'dunes'],
    font: 10,
  },
  {
    id: 'noir',
    label: 'noir mystery',
    keywords: ['detective', 'noir', 'murder', 'mystery', 'crime', 'investigation', 'private eye', 'case', 'clue', 'suspect', 'mob', 'mafia', 'speakeasy', 'prohibition', 'police', 'corrupt', 'femme fatale', 'whodunit', 'alibi', 'homicide'],
    places: ['the precinct house', 'a booth at the all-night diner', 'the docks at pier nine', 'the jazz club on Sixth', 'the victim\'s apartment', 'the rain-slick alley behind the hotel', 'the newspaper morgue', 'the penthouse suite'],
    sky: ['rain came down like it had a grudge', 'the city lights smeared in the wet', 'fog swallowed the streetlamps', 'a cold wind came off the river', 'the neon sign across the street buzzed red'],
    sensory: ['cigarette smoke and cheap bourbon', 'a saxophone somewhere down the block', 'the tick of a radiator', 'wet wool and gun oil', 'a phone ringing in an empty office'],
    threats: ['a mob enforcer with soft hands', 'two cops on the take', 'a hired gun in a grey fedora', 'a blackmailer', 'the boss\'s nephew', 'a killer who left no prints'],
    allies: ['a night-shift reporter', 'a bartender who hears everything', 'an honest cop', 'a nervous bookkeeper', 'a lounge singer', 'a shoeshine kid'],
    artifacts: ['a matchbook from the Blue Lantern', 'a ledger in code', 'a pawn ticket', 'a photograph with a face cut out', 'a .38 with the serial filed off', 'a locker key'],
    power: 'instinct',
    specialNouns: ['Hunch', 'Read', 'Cold Read', 'Tail', 'Angle', 'Third Degree'],
    oaths: ['Sweet mother of mercy', 'Figures', 'Some days you eat the bear'],
    firstNames: ['Vivian', 'Sam', 'Lola', 'Frank', 'Dolores', 'Mickey', 'Evelyn', 'Lou', 'Rita', 'Jack'],
    lastNames: ['Marlowe', 'Kowalski', 'Vance', 'O\'Hara', 'Delgado', 'Sterling'],
    placeStarts: ['Bay', 'Port', 'King', 'Mercy', 'Union', 'Harbor', 'Grand', 'West'],
    placeEnds: ['side', ' City', ' Heights', ' Row', 'port', ' Square', ' Street', ' Yards'],
    factions: ['the Castellano family', 'the Ninth Precinct', 'the Harbor Commission', 'the Gazette'],
    missions: ['Find out who killed {npc}', 'Locate {artifact} before the mob does', 'Clear {ally} of the charges', 'Expose {faction}', 'Follow the money from {place}'],
    palette: { skyTop: '#1b1d24', skyHorizon: '#5a5f6b', far: '#30343d', near: '#1d2027', silhouette: '#0a0b0e', light: '#f2c14e' },
    motifs: ['skyline', 'moon'],
    font: 4,
  },
  {
    id: 'pirate',
    label: 'pirate adventure',
    keywords: ['pirate', 'pirates', 'ship', 'sail', 'sailor', 'captain', 'treasure', 'island', 'sea', 'ocean', 'navy', 'buccaneer', 'corsair', 'galleon', 'harbor', 'harbour', 'kraken', 'crew', 'nautical', 'port', 'cutlass', 'archipelago', 'reef'],
    places: ['the quarterdeck', 'the smugglers\' cove', 'the harbour tavern', 'the crow\'s nest', 'the reef at low tide', 'the governor\'s fort', 'the jungle beyond the beach', 'the hold below decks'],
    sky: ['a fair wind filled the sails', 'gulls wheeled over green water', 'a squall line darkened the horizon', 'the sun set red over the open sea', 'stars crowded the sky above the rigging'],
    sensory: ['salt spray and tar', 'the creak of timbers', 'the boom of surf on the reef', 'rum and wet rope', 'the snap of canvas'],
    threats: ['a navy frigate', 'a rival crew under black sails', 'a waterspout', 'the kraken', 'a mutinous bosun', 'the governor\'s redcoats'],
    allies: ['a one-eyed quartermaster', 'a cabin boy with quick hands', 'a navigator who reads the stars', 'a cheerful ship\'s cook', 'a runaway noblewoman', 'an island guide'],
    artifacts: ['half of a treasure map', 'a cursed gold doubloon', 'the captain\'s logbook', 'a brass spyglass', 'the letters of marque', 'a chest of Spanish silver'],
    power: 'sea-luck',
    specialNouns: ['Broadside', 'Sea Legs', 'Tide Sense', 'Boarding Cry', 'Silver Tongue', 'Storm Eye'],
    oaths: ['Blow me down', 'Shiver my timbers', 'By Davy Jones'],
    firstNames: ['Anne', 'Calico', 'Marisol', 'Bartholomew', 'Grace', 'Silver', 'Esme', 'Flint', 'Isla', 'Rackham'],
    lastNames: ['Bonny', 'Blackwater', 'Teach', 'Morgan', 'Saltcrow', 'Kidd'],
    placeStarts: ['Tor', 'Skull', 'Port ', 'Isla ', 'Tortuga', 'Black', 'Coral', 'Gull'],
    placeEnds: ['tuga', ' Cay', ' Royal', ' Mar', ' Key', ' Reef', 'haven', ' Bay'],
    factions: ['the Brethren of the Coast', 'the Royal Navy', 'the East Sea Company', 'the crew of the Mercy'],
    missions: ['Find the other half of {artifact}', 'Reach {placeName} before the navy does', 'Win back the ship from {threat}', 'Free {ally} from the governor\'s fort', 'Settle the debt owed to {faction}'],
    palette: { skyTop: '#2b7bbf', skyHorizon: '#ffd9a0', far: '#2f8f83', near: '#175a6b', silhouette: '#0b2530', light: '#fff4d6' },
    motifs: ['waves', 'ships'],
    font: 2,
  },
  {
    id: 'steampunk',
    label: 'steampunk',
    keywords: ['steampunk', 'steam', 'clockwork', 'gear', 'gears', 'airship', 'zeppelin', 'brass', 'victorian', 'automaton', 'inventor', 'aether', 'boiler', 'goggles', 'dirigible', 'cog', 'industrial', 'foundry', 'gaslight'],
    places: ['the airship docks', 'the inventor\'s workshop', 'the Guildhall of Engineers', 'the gaslit arcade', 'the foundry floor', 'the rooftops of the clock district', 'the pneumatic post office', 'the aether exchange'],
    sky: ['airships drifted beneath a sky stained by chimney smoke', 'the great clock tolled through brown fog', 'a copper sunset glinted off a thousand rooftops', 'soot fell like black snow', 'searchlights swept from the zeppelin masts'],
    sensory: ['hot oil and coal smoke', 'the tick of a thousand clocks', 'the hiss of a pressure valve', 'brass polish and pipe tobacco', 'the rumble of the underground engines'],
    threats: ['a runaway automaton', 'Guild enforcers in brass masks', 'sky-pirates', 'a boiler about to burst', 'a duelling baronet', 'the clockwork constabulary'],
    allies: ['an eccentric lady inventor', 'a chimney sweep', 'an airship captain', 'a brass automaton butler', 'a disgraced professor', 'a journalist of the penny press'],
    artifacts: ['the difference engine\'s punch cards', 'a pocket aether compass', 'blueprints for a perpetual engine', 'a clockwork heart', 'the Lord Mayor\'s cipher', 'a vial of luminous aether'],
    power: 'ingenuity',
    specialNouns: ['Contraption', 'Gadget', 'Calculation', 'Overpressure', 'Apparatus', 'Gambit'],
    oaths: ['Great gears', 'By Babbage', 'Steam and sorrow'],
    firstNames: ['Ada', 'Percival', 'Octavia', 'Barnaby', 'Lavinia', 'Cornelius', 'Winifred', 'Archibald', 'Florence', 'Ignatius'],
    lastNames: ['Cogsworth', 'Fairweather', 'Brassington', 'Whitmore', 'Gearhart', 'Ashcombe'],
    placeStarts: ['New ', 'Brass', 'Copper', 'Cog', 'Gaslight ', 'Ironwell', 'Smoke', 'Mill'],
    placeEnds: ['ton', 'bury', 'chester', ' Ward', ' End', 'ford', 'minster', 'borough'],
    factions: ['the Guild of Engineers', 'the Aeronautical Society', 'the Luddite Underground', 'the Crown Patent Office'],
    missions: ['Recover {artifact} before the Exhibition opens', 'Stop {threat} in {place}', 'Get the airship to {placeName} by nightfall', 'Prove the invention works to {faction}', 'Find out who sabotaged {place}'],
    palette: { skyTop: '#5d4a3a', skyHorizon: '#d9a066', far: '#7a5c43', near: '#4a3526', silhouette: '#21160f', light: '#ffcf7a' },
    motifs: ['airships', 'chimneys'],
    font: 11,
  },
  {
    id: 'mythic',
    label: 'mythic',
    keywords: ['myth', 'mythic', 'mythology', 'god', 'gods', 'goddess', 'olympus', 'oracle', 'hero', 'titan', 'norse', 'valhalla', 'pantheon', 'demigod', 'legend', 'temple', 'divine', 'underworld', 'fate', 'fates', 'sphinx', 'immortal'],
    places: ['the oracle\'s cave', 'the temple steps', 'the olive grove', 'the bronze gates of the city', 'the shore where the gods walk', 'the mountain path to the summit', 'the river at the edge of the underworld', 'the hall of heroes'],
    sky: ['thunder rolled from a cloudless sky', 'the sun-chariot stood high and fierce', 'the constellations of old heroes burned bright', 'an eagle circled three times', 'the wine-dark sea met a gold horizon'],
    sensory: ['incense and salt', 'the lyre of a distant singer', 'sacrificial smoke rising straight up', 'wild thyme crushed underfoot', 'the hush before a god speaks'],
    threats: ['a bronze-footed giant', 'the hounds of the underworld', 'a jealous goddess', 'a many-headed serpent', 'harpies', 'a king who defied the gods'],
    allies: ['a blind seer', 'a shepherd who was more than he seemed', 'a river nymph', 'a veteran of the long war', 'a priestess of the moon', 'a talking owl'],
    artifacts: ['a golden fleece', 'the thunder-spear', 'a thread from the Fates\' loom', 'a helm of darkness', 'an apple of discord', 'the oracle\'s tripod'],
    power: 'divine favour',
    specialNouns: ['Favour', 'Gift', 'Wrath', 'Boon', 'Aegis', 'Fury'],
    oaths: ['By the gods above', 'May the Fates forgive me', 'By thunder'],
    firstNames: ['Theron', 'Ianthe', 'Leander', 'Cassia', 'Orestes', 'Phaedra', 'Nikias', 'Thalia', 'Ajax', 'Xanthe'],
    lastNames: ['son of Kallias', 'daughter of the sea', 'of Thebes', 'the Wanderer', 'Stormborn', 'of Ithra'],
    placeStarts: ['Ath', 'Kor', 'Myk', 'Del', 'Thes', 'Ely', 'Kalyd', 'Ar'],
    placeEnds: ['os', 'ene', 'ae', 'phi', 'ion', 'ia', 'on', 'ikos'],
    factions: ['the council of the gods', 'the Amazons', 'the priesthood of the Oracle', 'the sea-kings'],
    missions: ['Bring {artifact} to the temple at {placeName}', 'Answer the riddle of the oracle', 'Descend to the underworld and return with {npc}', 'Slay {threat}', 'Win the favour of {faction}'],
    palette: { skyTop: '#1f5fa8', skyHorizon: '#f7d98b', far: '#8fa6b8', near: '#9a7b4f', silhouette: '#3a2c1b', light: '#fff7d1' },
    motifs: ['temple', 'mountains', 'waves'],
    font: 2,
  },
  {
    id: 'urban',
    label: 'modern urban',
    keywords: ['city', 'modern', 'urban', 'school', 'college', 'office', 'subway', 'apartment', 'phone', 'internet', 'social media', 'downtown', 'cafe', 'coffee', 'band', 'startup', 'contemporary', 'new york', 'london', 'suburb', 'street'],
    places: ['the corner café', 'the subway platform', 'the rooftop garden', 'the community centre', 'the late-night laundromat', 'the record shop', 'the park by the river', 'the fifth-floor office'],
    sky: ['a soft drizzle blurred the streetlights', 'the evening rush poured out of the stations', 'the sky over the towers went peach and grey', 'sirens rose and faded across town', 'the first warm day of spring pulled everyone outside'],
    sensory: ['fresh coffee and wet pavement', 'a busker\'s guitar', 'buses sighing at the kerb', 'phone screens glowing in the dark', 'the smell of street food'],
    threats: ['a landlord with a crew of movers', 'a journalist who wanted a story', 'a rival who never played fair', 'the city inspector', 'a stalker with a long lens', 'a deadline'],
    allies: ['a best friend with a car', 'a barista who knew everyone', 'a retired teacher', 'a streetwise cousin', 'a coder who owed a favour', 'a neighbour with a dog'],
    artifacts: ['a locked phone', 'a USB stick with one file', 'an envelope of cash', 'a set of keys to the old building', 'a demo tape', 'a missing laptop'],
    power: 'hustle',
    specialNouns: ['Network', 'Hustle', 'Charm', 'Shortcut', 'Hunch', 'Comeback'],
    oaths: ['Honestly', 'Oh, come on', 'Well, look at that'],
    firstNames: ['Maya', 'Leo', 'Priya', 'Marcus', 'Zoe', 'Sam', 'Alana', 'Theo', 'Nadia', 'Jamal'],
    lastNames: ['Chen', 'Okoye', 'Rivera', 'Brennan', 'Patel', 'Novak'],
    placeStarts: ['East ', 'North', 'River', 'Mill', 'Union ', 'Elm', 'Harbor', 'Queens'],
    placeEnds: ['side', 'gate', ' Park', ' Street', 'field', ' Market', 'town', ' Heights'],
    factions: ['the neighbourhood association', 'the city council', 'the Ferro Group', 'the night-shift crowd'],
    missions: ['Find {artifact} before Friday', 'Save {place} from being sold', 'Help {ally} get out of trouble', 'Find out who is behind {threat}', 'Win over {faction}'],
    palette: { skyTop: '#6f8fb3', skyHorizon: '#f2b8a0', far: '#8a94a6', near: '#4b5363', silhouette: '#1f232b', light: '#ffe9b0' },
    motifs: ['skyline'],
    font: 0,
  },
];

