/**
 * Sentence families of the offline storyteller. Every sentence a chapter contains comes from one
 * family, used at most once per chapter. A family's variant is `cores × mods`; the variant for a
 * chapter is picked by an affine permutation of the chapter number (prng.ts), so any 30 consecutive
 * chapters use 30 different variants of every family (each family has ≥ 30) — no sentence can repeat
 * verbatim regardless of what the random slot fillers turn out to be. Genre register and the world's
 * names come in through the slots ({place}, {npc}, {threat}, {sky}, {sensory}, …).
 *
 * Rules for writers: mods must differ from one another at every reading tier; no "!" or "?" inside a
 * sentence (it would split into fragments that can repeat); `pre` mods end with a comma.
 */
import type { ActionKind } from './text';

export interface Family {
  cores: string[];
  mods: string[];
  pos: 'pre' | 'post';
}

export const CONTINUE: Family = {
  pos: 'pre',
  cores: [
    '{name} had not forgotten {prev}',
    "{prev} [stayed|lingered|lingered, unresolved,] in {name}'s thoughts",
    '{name} [thought about|turned over|turned over once more] {prev}',
    '{name} [went over|went back over|went back over, piece by piece,] {prev}',
    "{prev} [was still on|still weighed on|weighed heavily on] {name}'s mind",
    '{name} [could not stop thinking about|could not set aside|found it impossible to set aside] {prev}',
    // (More cores than the story has room to repeat: each opening comes round in about a tenth of chapters.)
    '{prev} [came back to {name}|came back to {name} unasked|came back to {name} unasked, like a tune]',
    '{name} [kept {prev} close|carried {prev} along|carried {prev} along like a stone in a pocket]',
    '[nothing|not much|not much of anything] could crowd out {prev}',
  ],
  mods: [
    '[Later|Some time later|When the moment had passed and the dust had settled],',
    '[Now|By now|With the immediate danger behind {them}],',
    '[Even then|Even so|Even as the scene around {them} shifted],',
    '[Quietly|In a quiet moment|In the brief quiet that followed],',
    '[At last|In the end|After what felt like a long while],',
    '[Again|Once again|Not for the first time that day],',
    '[Today|This morning|On this particular morning],',
    '[Tonight|This evening|As the evening drew in],',
    '[Still|Even now|Even now, hours later],',
  ],
};

/** What the action achieved, in terms of the thing acted on. Shared mods with CONSEQ. */
export const OUTCOME: Family = {
  pos: 'pre',
  cores: [
    '{object} [was not what {they} expected|held a surprise|held a surprise {they} had not bargained for]',
    '{name} [learned something new about|found out more than expected about|came away knowing more about] {object}',
    "{object} [would not be forgotten soon|would stay in {name}'s memory|would stay in {name}'s memory for a long time]",
    '[all of it|every bit of it|every bit of it, in the end,] came back to {object}',
    '{name} [had been right about|had guessed right about|had, it turned out, guessed right about] {object}',
  ],
  mods: [
    '[Afterwards|After that|When it was over],',
    '[Oddly|Strangely|Stranger still],',
    '[In the end|At the end of it|When all was weighed and measured],',
    '[Either way|One way or another|For better or for worse],',
    '[Clearly|Plainly|Beyond any doubt],',
    '[As it turned out|As things turned out|As things turned out that day],',
  ],
};

export const ENCOUNTER: Family = {
  pos: 'pre',
  cores: [
    '{npcFull} [was waiting|was waiting there|was waiting there as if by appointment]',
    '{npcFull} [stepped out|stepped out of the crowd|stepped out of the crowd and fell into step beside {name}]',
    '{name} [met|ran into|crossed paths with] {npcFull}',
    "{npcFull} [called out to {name}|called {name}'s name|called {name}'s name from across the way]",
    '{name} [spotted|noticed|caught sight of] {npcFull} [waving|beckoning|beckoning with unmistakable urgency]',
    'a voice [said hello|called out|called out from the shadows]; it was {npcFull}',
    '{npcFull} [came over|came over at once|came over without being asked]',
    '{name} [found {npcFull}|found {npcFull} there|found {npcFull} already there, as if expecting company]',
    '{npcFull} [sat down beside {name}|took the seat beside {name}|took the seat beside {name} without a word of asking]',
  ],
  mods: [
    '[Then|Just then|At that very moment],',
    '[Soon|Before long|Before the hour was out],',
    '[Nearby|Close by|Not a dozen paces away],',
    '[Oddly enough|Strangely enough|As chance would have it],',
    '[Luckily|As luck would have it|As luck — or fate — would have it],',
    '[Suddenly|All at once|Without any warning],',
    '[Later|A little later|A little later, when the crowd had thinned],',
    '[By the door|Over by the door|Over by the door, half in shadow],',
  ],
};

/** Someone already in the scene speaks up again (a continued chapter: nobody arrives, they are there). */
export const REJOIN: Family = {
  pos: 'pre',
  cores: [
    '{npc} [spoke again|spoke up again|broke the silence again]',
    '{npc} [was still there|was still close by|had not gone far]',
    "{npc} [caught {name}'s eye|caught {name}'s eye again|caught {name}'s eye and held it]",
    '{name} [turned back to {npc}|turned back toward {npc}|turned back to {npc}, who was still watching]',
    '{npc} [stepped closer|took a step closer|stepped closer still]',
    '[a moment passed|a long moment passed|a long, uneasy moment passed] before {npc} spoke',
  ],
  mods: [
    '[Then|After a pause|After a long pause],',
    '[Meanwhile|All the while|All the while, it seemed],',
    '[At last|Finally|At long last],',
    '[Quietly|Softly|Very softly],',
  ],
};

export const REPLY: Family = {
  pos: 'post',
  cores: [
    '{name} [nodded|nodded slowly|nodded slowly, weighing every word]',
    '{name} [said nothing|kept quiet|kept {their} own counsel for the moment]',
    '{name} [thanked {npc}|thanked {npc} warmly|thanked {npc}, meaning it more than {they} could say]',
    '{name} [asked one more question|pressed for details|pressed for details, refusing to be put off]',
    '{name} [smiled|smiled a little|allowed {themself} the ghost of a smile]',
    'being {trait}, {name} [did not argue|did not argue the point|saw no reason to argue the point]',
    '{name} [listened|listened hard|listened hard, and let none of it show]',
    '{name} [shrugged|gave a shrug|gave a shrug that promised nothing]',
    '{name} [looked at {npc}|looked {npc} over|looked {npc} over, taking {their} time]',
    '{name} [took that in|took it all in|took it all in without a word]',
  ],
  mods: [
    ', [then looked away|then looked toward {place}|then turned to look toward {place}]',
    ', [thinking of the mission|thinking about the task ahead|{their} thoughts already on the task ahead]',
    ' [for a moment|for a long moment|for what felt like a long moment]',
    ', [and {npc} seemed pleased|and {npc} seemed satisfied|and {npc} seemed, if not pleased, at least satisfied]',
    ', [unsure what to think|not sure what to believe|uncertain how much of it to believe]',
    ', [hand on {their} pack|one hand on {their} belt|one hand resting, out of habit, on {their} belt]',
    ', [then waited|then waited for more|then waited to hear the rest]',
    ', [eyes on {npc}|eyes on {npc} all the while|eyes on {npc} the whole time]',
  ],
};

export const MISSION: Family = {
  pos: 'pre',
  cores: [
    'the mission [was clear|was still clear|remained as clear as ever]: {mission}',
    '{name} [was one step closer|had come one step closer|had come one hard-won step closer] to {their} goal — to {mission}',
    '[each step|every step|every step along the way] [led toward one end|brought {them} nearer to one end|brought {them} nearer to the same end]: to {mission}',
    '{name} [remembered the task|kept the task in mind|never let the task slip from {their} mind]: {mission}',
    '[the goal|the purpose|the purpose that had carried {them} this far] [had not changed|had not changed at all|had not changed one bit]: {mission}',
    '{name} [still meant|still fully meant|still meant, whatever it took,] to {mission}',
    '[the job|the job ahead|the job ahead of {them}] [stayed the same|stayed just the same|stayed exactly what it had been]: to {mission}',
    '[one thing mattered|one thing still mattered|one thing mattered above all the rest]: to {mission}',
    '{name} [would {mission}|would {mission}, somehow|would {mission}, one way or another]',
  ],
  mods: [
    '[Still|All the same|In spite of everything],',
    '[By now|By this point|By this point in the journey],',
    '[Little by little|Slowly but surely|Slowly, but surely],',
    '[Deep down|In {their} heart|Somewhere deep in {their} heart],',
    '[After all this|After all of this|After everything that had happened],',
    '[Whatever came next|Whatever happened next|Whatever the next hours might bring],',
    '[Meanwhile|All the while|All the while, under everything else],',
    '[Even so|Even now|Even now, tired as {they} were],',
  ],
};

/** Concrete progress on the mission, tied to what just happened. */
export const PROGRESS: Family = {
  pos: 'post',
  cores: [
    '[a plan was taking shape|a plan was taking shape now|a plan was slowly taking shape]',
    '[the way to the goal was clearer now|the road to the goal looked clearer now|the road to the goal looked clearer now than it had in days]',
    '{name} [now had a lead|now had a real lead|now held a lead worth following]',
    '[one more piece fell into place|one more piece of the puzzle fell into place|one more piece of the puzzle slid into place]',
    '{placeName} [was the next stop|looked like the next stop|looked more and more like the place where it would be decided]',
  ],
  mods: [
    ' [after this|after all this|after the events of the day]',
    ', [and that was something|and that was not nothing|and that, at least, was something]',
    ', [{name} was sure of it|{name} felt sure of it|{name} was almost certain of it]',
    ', [thanks to {npc}|with help from {npc}|thanks in no small part to {npc}]',
    ' [at last|at long last|at long last, after so many false starts]',
    ', [if {their} luck held|if luck stayed kind|if luck, for once, stayed kind]',
  ],
};

/**
 * An overdue mission taken up in a chapter whose check failed: the failure stands (its harm is told
 * before) and the task is done all the same, at a price — partial success and defeat in one breath.
 */
export const COMPLETE_AT_COST: Family = {
  pos: 'post',
  cores: [
    'it had gone badly, and yet it was done: {name} had managed to {mission}, at a price',
    '{name} [was hurt|was shaken|was bruised and short of breath], but the task to {mission} was complete all the same',
    'it cost more than it should have, but {name} had done it: the task to {mission} was finished',
    'nothing about it was clean, and still {name} had managed to {mission}',
  ],
  mods: [
    ', [and nobody called it a win|and nobody called it a clean win|and nobody who saw it called it a clean win]',
    ' [in the end|when all was said and done|when all was said and done, and the dust had cleared]',
    ', [though {npc} said nothing about how close it had been|though {npc} looked away|though {npc} did not look pleased]',
  ],
};

export const COMPLETE: Family = {
  pos: 'post',
  cores: [
    '[and so it was done|and just like that, it was done|and so, after everything, it was done]: {name} had managed to {mission}',
    '{name} [did it|had done it|had done it at last]: the task to {mission} was complete',
    'the mission to {mission} [was over|was finished|was finished, and finished well]',
    '{name} [had kept {their} word|had kept {their} promise|had kept a promise made long ago]: {their} task — to {mission} — was done',
    '[people cheered|a cheer went up|a cheer went up from those who had watched], because {name} had managed to {mission}',
  ],
  mods: [
    ' [at last|at long last|at long, long last]',
    ', [and it felt good|and it felt wonderful|and the relief of it was almost dizzying]',
    ', [and {npc} was the first to say so|and {npc} was the first to notice|and {npc} was the first to offer congratulations]',
    ', [though the cost was high|though not without cost|though it had cost more than {name} cared to count]',
    ' [in the end|when all was said and done|when all was said and done, and the dust had cleared]',
    ', [as the sky changed|as the light changed|as the light over {place} began to change]',
  ],
};

export const NEW_MISSION: Family = {
  pos: 'pre',
  cores: [
    '[there was more to do|the story was not over|the story, as stories do, went on]: now {they} had to {newMission}',
    '[a new task waited|a new task came|a new task arrived almost at once] — to {newMission}',
    '{npc} [had a new job|had a new request|had already thought of what came next]: {newMission}',
    '[the next goal was clear|the next goal was plain|the next goal stood out, plain as day]: {newMission}',
    '{name} [set a new goal|chose a new goal|set {their} sights on a new goal]: to {newMission}',
  ],
  mods: [
    '[Soon|Before long|Before the celebration had quite ended],',
    '[Even so|Even then|And yet, even then],',
    '[After that|After a while|Not long afterwards],',
    '[Of course|Naturally|As was only to be expected],',
    '[In truth|Truly|If the truth be told],',
    '[Right away|At once|Almost at once],',
  ],
};

export const STAT: Family = {
  pos: 'post',
  cores: [
    '{name} [felt {statAdj} than before|felt {statAdj} than before|could feel {themself} growing {statAdj}]',
    "[the day|the day's trials|the trials of the day] had made {name} {statAdj}",
    '{name} [was {statAdj} now|was a little {statAdj} now|had become, without quite noticing, a little {statAdj}]',
    '[something had changed|something in {name} had changed|something in {name} had quietly changed]: {they} were {statAdj}',
    '{name} [learned something|learned a lesson|learned a lesson worth more than gold], and came away {statAdj}',
  ],
  mods: [
    ' [after that|after all of that|after everything {they} had been through]',
    ', [and it showed|and it showed in {their} stride|and it showed in every line of {their} bearing]',
    ', [no doubt about it|without a doubt|of that there could be no doubt]',
    ', [and {npc} noticed|and {npc} noticed it too|and even {npc} seemed to notice]',
    ' [today|on this day|on this hard and strange day]',
    ', [and that would matter|and that would matter soon|and that, {they} suspected, would matter soon]',
  ],
};

export const SETTING: Family = {
  pos: 'post',
  cores: [
    '{name} [came to|arrived at|arrived, at last, at] {newPlace}',
    '[the way led on|the way led onward|the way led onward and away] to {newPlace}',
    '{newPlace} [was new to {name}|was a new place for {name}|was unlike anywhere {name} had been before]',
    '{name} [reached|found|found {their} way to] {newPlace}',
    '[a new place|a new place opened up|a new place opened up before {them}]: {newPlace}',
  ],
  mods: [
    ', [where everything felt new|where everything felt unfamiliar|where everything seemed unfamiliar and strange]',
    ' [by nightfall|as night fell|as the last light drained from the sky]',
    ', [where {sensory} filled the air|with {sensory} all around|where {sensory} hung in the air]',
    ' [after a long trip|after a long walk|after a long and winding road]',
    ', [and {npc} came too|with {npc} close behind|with {npc} following close behind]',
    ', [under a strange sky|under a changing sky|beneath a sky that seemed to belong to another world]',
  ],
};

/** A core and a modifier that contradict each other: "there was no sign of Isolde, and Isolde waited". */
export function clashes(core: string, mod: string): boolean {
  return /no sign of \{npc\}/.test(core) && mod.includes('{npc}');
}

export const HOOK: Family = {
  pos: 'post',
  cores: [
    '[now {name} had to choose|now {name} had a choice to make|now {name} faced a choice that could not be put off]',
    '[what came next|what would come next|whatever would come next] [was up to {name}|was up to {name} alone|was, as always, up to {name} alone]',
    '{threatCap} [remained out there|remained out there somewhere|remained out there, and surely not idle]',
    '[somewhere|somewhere close|somewhere close by] a [door slammed|door slammed shut|door slammed, and then there was silence]',
    '{name} [looked ahead|looked toward {placeName}|turned to look toward {placeName}, thinking hard]',
    '[a dog barked|a dog barked far off|a dog barked somewhere far off, then stopped]',
    '{name} [counted {their} chances|weighed {their} chances|weighed {their} chances and did not like the sum]',
    '[the road forked|the road ahead forked|the road ahead forked in more ways than one]',
    '[there was no sign of {npc}|there was no sign of {npc} by then|by then there was no sign of {npc}, and no word of where they had gone]',
  ],
  mods: [
    ' [as the light went|as the light began to fade|as the last of the light slipped away]',
    ', [and the night was young|and the night was still young|and the night was still young, and full of choices]',
    ', [and {they} held still|and {they} held still a moment|and {they} held still, listening, for some sign of what to do]',
    ', [and {npc} waited too|and {npc} waited to see what {they} would do|and {npc} waited, watching closely]',
    ' [once more|once again|once again, as so often before]',
    ', [and the wind rose|and the wind picked up|and the wind rose, carrying {sensory}]',
    ', [and no one came|and no one else came|and no one else came, though {name} watched the way]',
    ' [before long|before very long|before {name} was ready for it]',
    ', [and the hour grew late|and the hour was late|and the hour was later than it felt]',
    // (Mods no world rules out: under the ice the light, the wind and the night give way to others,
    // and with fewer, "and no one else came" closed 7–8 of a Glass Reef story's 30 chapters.)
    ', [and then the waiting began|and then the real waiting began|and then the long, quiet waiting began]',
    ' [all the same|all the same, somehow|all the same, whatever came of it]',
    ', [and {name} knew it|and {name} knew it well|and {name} knew it better than anyone]',
  ],
};

export const SKY: Family = {
  pos: 'post',
  cores: ['above {name}, {sky}', '{sky}', 'out past {place}, {sky}', '{name} looked up: {sky}', 'overhead, {sky}'],
  mods: [
    ' [again|once more|once more, as if nothing below mattered]',
    ', [and it was cold|and the air turned cool|and the air turned cool and restless]',
    ', [and it was quiet|and everything went quiet|and for a moment the whole world seemed to hold still]',
    ', [as it had every day|as it did most days|as it did on most days in {worldPlace}]',
    ', [which felt like a sign|which felt like an omen|which {name} could not help reading as an omen]',
    ' [for a while|for a long while|for a long while, unchanging]',
    ', [and {name} looked away|and {name} looked away at last|and {name} finally looked away]',
    ', [and nobody else looked up|and nobody else looked up at it|and nobody else looked up at it at all]',
  ],
};

export const SENSORY: Family = {
  pos: 'post',
  cores: [
    '{name} [noticed|became aware of|became aware, little by little, of] {sensory}',
    '[there was|all around was|all around hung] {sensory}',
    '{sensory} [filled the air|filled the air here|filled the air here, impossible to ignore]',
    '[somewhere|from somewhere|from somewhere nearby] came {sensory}',
    '{name} [could not ignore|could not shut out|could not quite shut out] {sensory}',
    '[there was no escaping|there was no getting away from|there was, it seemed, no getting away from] {sensory}',
    '{sensory} [came and went|came and went on the air|came and went, never quite fading]',
    '[for a time|for a good while|for a long, strange while] there was only {sensory}',
  ],
  mods: [
    ', [and {name} liked it|and it was oddly calming|and it was, strangely, a comfort]',
    ', [which meant trouble|which was not a good sign|which, in {worldPlace}, was rarely a good sign]',
    ' [near {place}|all around {place}|all through {place}]',
    ', [like in a dream|as if in a dream|as if in some half-remembered dream]',
    ', [as always|same as always|the same as it ever was]',
    ', [mixed with {sensory2}|along with {sensory2}|tangled up with {sensory2}]',
    ', [stronger now|stronger than before|stronger now than an hour ago]',
    ', [and {name} let it be|and {name} let it wash over {them}|and {name} let it wash over {them} for a while]',
  ],
};

export const INNER: Family = {
  pos: 'post',
  cores: [
    '{name} [thought of home|thought of home for a moment|let {their} thoughts drift home for a moment]',
    'being {trait} [helped|helped here|helped more than {name} would admit]',
    '{name} [wondered who to trust|wondered whom to trust|wondered, not for the first time, whom to trust]',
    '[it was scary|it was frightening|it was unnerving], but {name} was {trait}',
    '{name} [felt the weight of {their} past|remembered where {they} came from|remembered, with sudden clarity, where {they} had come from]',
    '{name} [felt tired|felt the tiredness now|felt the tiredness settle in properly now]',
    '{name} [thought about turning back|thought, briefly, about turning back|thought, briefly and not for the first time, about turning back]',
    '[a doubt crept in|a small doubt crept in|a small, stubborn doubt crept in]',
  ],
  mods: [
    ' [for a moment|for a heartbeat|for the space of a heartbeat]',
    ', [then shook it off|then let it go|then put the thought firmly aside]',
    ', [and {special} stirred|and {special} stirred within|and somewhere within, {special} stirred]',
    ', [deep down|at heart|at heart, whatever else {they} might be]',
    ', [which was a good thing|which was just as well|which was, on reflection, just as well]',
    ', [saying nothing|saying nothing of it|saying nothing of it to anyone]',
    ' [more than once|more than once that day|more than once, in spite of everything]',
    ', [and kept moving|and pressed on|and pressed on regardless]',
  ],
};

export const PLACE: Family = {
  pos: 'post',
  cores: [
    '{placeCap} [was old|was older than it looked|was far older than it looked]',
    '[people said|folk said|the old stories said] that {place} [was lucky|had been lucky once|had once been a lucky place]',
    '{placeCap} [was crowded|was more crowded than before|was more crowded than {name} remembered]',
    '[in {worldPlace}|all across {worldPlace}|everywhere in {worldPlace}], [people talked of|folk whispered of|folk spoke in lowered voices of] {threat}',
    '{faction} [had been here|had left their mark here|had clearly left their mark here]',
    '{placeCap} [was quiet|was quieter than it ought to be|was quieter than a place like it had any right to be]',
    '{placeCap} [kept its own hours|kept its own hours and its own counsel|kept its own hours, and its own counsel, as it always had]',
    '[strangers were watched|strangers were watched closely|every stranger was watched closely] at {place}',
    '{placeCap} [had seen better days|had seen better days, and worse|had seen better days, and worse ones too, by the look of it]',
  ],
  mods: [
    ', [and it showed|and it showed everywhere|and it showed in every weathered stone]',
    ', [said {npc}|or so {npc} claimed|or so {npc} insisted, at least]',
    ', [it seemed|or so it seemed|or so it seemed to {name}]',
    ", [to {name}'s surprise|much to {name}'s surprise|much to {name}'s quiet surprise]",
    ', [for better or worse|for good or ill|for good or for ill]',
    ' [these days|in these hard days|in these hard and uncertain days]',
    ', [by all accounts|by most accounts|by just about every account]',
    ', [whatever the locals said|whatever the locals claimed|whatever the locals liked to claim]',
  ],
};

/** A beat of bodily detail that keeps the prose physical. */
export const BODY: Family = {
  pos: 'post',
  cores: [
    '{name} [wiped {their} face|wiped the grime from {their} face|wiped the grime and sweat from {their} face]',
    '{name} [steadied {their} shaking hands|steadied {their} unsteady hands|steadied hands that were not as steady as {they} would have liked]',
    '{name} [took a long drink of water|drank deeply from {their} flask|drank deeply from {their} flask and felt a little better]',
    '{name} [rolled {their} shoulders|stretched {their} stiff back|stretched, feeling every ache of the last days]',
    '{name} [laced {their} boots tight|checked {their} gear|checked {their} gear twice, the way old habits demanded]',
    '{name} [rubbed {their} cold hands|rubbed warmth back into {their} hands|rubbed some warmth back into {their} stiff fingers]',
    '{name} [tightened a strap|tightened the strap of {their} pack|tightened the strap of {their} pack until it sat right]',
    '{name} [blinked the tiredness away|blinked hard against the tiredness|blinked hard, pushing the tiredness back a little longer]',
    '{name} [pushed the hair out of {their} eyes|pushed damp hair out of {their} eyes|pushed the damp hair out of {their} eyes with the back of a hand]',
  ],
  mods: [
    ' [and stood up|and got to {their} feet|and rose, ready or not]',
    ', [eyes on {place}|watching {place}|never taking {their} eyes off {place}]',
    ', [then breathed out|then let out a breath|then let out a long, slow breath]',
    ' [without a word|without saying a word|without a word to anyone]',
    ', [thinking fast|mind racing|mind already racing ahead]',
    ' [in the quiet|in the sudden quiet|in the sudden, ringing quiet]',
    ', [slowly|slowly and carefully|slowly, the way tired people do]',
    ', [then stood still|then stood still a moment|then stood very still, listening]',
  ],
};

/** A look at the person the character is dealing with. */
export const NPC_DETAIL: Family = {
  pos: 'post',
  cores: [
    '{npc} [had kind eyes|had tired, kind eyes|had the tired, kind eyes of someone who had seen too much]',
    '{npc} [wore a patched coat|wore a coat patched many times|wore a coat that had been patched more times than anyone could count]',
    '{npc} [spoke softly|spoke in a low voice|spoke in a low, careful voice]',
    '{npc} [was small and quick|was small, wiry and quick|was small and wiry, and quicker than first impressions suggested]',
    '{npc} [kept looking at the door|kept glancing at the door|kept glancing toward the door, as if expecting someone]',
  ],
  mods: [
    ', [{name} noticed|{name} saw|{name} could not help noticing]',
    ' [as always|as ever|as ever, it seemed]',
    ', [and seemed nervous|and seemed uneasy|and seemed more uneasy than they let on]',
    ' [that day|on that day|on that particular day]',
    ', [which told {name} a lot|which told {name} something|which told {name} more than any words could]',
    ', [like an old soldier|like someone used to trouble|like someone long used to trouble]',
  ],
};

/** A memory that ties the character to the world. */
export const MEMORY: Family = {
  pos: 'post',
  cores: [
    '{name} [remembered {their} first day in {worldPlace}|remembered arriving in {worldPlace}|remembered, suddenly, the day {they} first came to {worldPlace}]',
    '{name} [thought about {their} family|thought of the people back home|thought of the people {they} had left behind]',
    '{name} [remembered an old lesson|recalled an old lesson|recalled an old lesson, clear as a bell]',
    '{name} [recalled a story about {artifact}|recalled an old tale about {artifact}|recalled an old tale, half-forgotten, about {artifact}]',
    '{name} [remembered a promise|remembered an old promise|remembered a promise made long ago]',
    '{name} [remembered a face from long ago|remembered a face from years ago|remembered a face from years ago, and the name that went with it]',
    '{name} [hummed a bit of an old song|caught {themself} humming an old song|caught {themself} humming a song from childhood]',
    '{name} [thought of a mistake made long ago|thought of an old mistake|thought of an old mistake, one that still stung]',
  ],
  mods: [
    ', [and smiled|and smiled a little|and smiled despite everything]',
    ', [and felt calmer|and felt steadier|and felt steadier for it]',
    ' [all of a sudden|out of nowhere|out of nowhere, unbidden]',
    ', [and frowned|and frowned at the memory|and frowned at the memory, unsure why it mattered now]',
    ' [without meaning to|without wanting to|without quite meaning to]',
    ', [then let it go again|then let the memory fade|then let the memory fade into the noise of the day]',
    ', [the past close at hand|the past very close at hand|the past, for a moment, close enough to touch]',
    ' [for no reason at all|for no clear reason|for no reason {name} could name]',
  ],
};

/** The character thinking ahead: a reserve family that also keeps short chapters above 150 words. */
export const PLAN: Family = {
  pos: 'post',
  cores: [
    '{name} [made a plan|worked out a plan|worked out the beginnings of a plan]',
    '{name} [counted what was left|took stock of what was left|took careful stock of what {they} had left]',
    '{name} [thought about the next move|weighed the next move|weighed the next move with care]',
    '{name} [marked the way on a map|traced the route on a map|traced the route on a battered map]',
    '{name} [listed what could go wrong|went over what could go wrong|went over, one by one, everything that could go wrong]',
    '{name} [picked a way in|picked the best way in|picked the best way in, and a second one in case]',
    '{name} [settled on an order of things|settled what to do first|settled, after some thought, what had to come first]',
    '{name} [guessed where trouble would come from|guessed where the trouble would start|tried to guess where the trouble would start, and when]',
  ],
  mods: [
    ', [step by step|one step at a time|one careful step at a time]',
    ', [just in case|to be safe|to be on the safe side]',
    ' [in {their} head|quietly, in {their} head|silently, without moving {their} lips]',
    ', [then nodded|then nodded to {themself}|then gave a small nod of satisfaction]',
    ' [with {npc}|together with {npc}|with {npc} looking on]',
    ', [and felt ready|and felt more ready|and felt, for the first time, almost ready]',
  ],
};

/** Life going on around the character: the last reserve family. */
export const ASIDE: Family = {
  pos: 'post',
  cores: [
    '{allyCap} [passed by|hurried past|hurried past without a second glance]',
    '[somewhere|somewhere nearby|somewhere just out of sight], {ally} [was arguing|was arguing loudly|was arguing loudly about money]',
    '{name} [heard {sensory2}|caught {sensory2}|caught, faintly, {sensory2}]',
    '[a stranger nodded|a stranger nodded to {name}|a stranger nodded to {name} as if they were old friends]',
    '[the crowd thinned|the crowd thinned out|the crowd thinned out as the hour grew late]',
    '[a child ran past|a child ran past, laughing|a child ran past, laughing at something nobody else could see]',
    '{allyCap} [stopped to stare|stopped to stare at {name}|stopped to stare at {name}, then thought better of it]',
    '[a door creaked|a door creaked open|somewhere behind {name}, a door creaked slowly open]',
  ],
  mods: [
    ' [nearby|close by|not far from {name}]',
    ', [and {name} smiled|and {name} almost smiled|and {name} could not help but smile]',
    ' [for a moment|for a little while|for a brief, strange moment]',
    ', [then all was calm|then all was calm again|then all was calm again, or nearly so]',
    ', [which was odd|which was a little odd|which struck {name} as more than a little odd]',
    ', [and nobody cared|and nobody seemed to care|and nobody else seemed to notice]',
  ],
};

/** The place changing with the hours: a reserve family for short, low-level chapters. */
export const WEATHER: Family = {
  pos: 'post',
  cores: [
    '[the light changed|the light began to change|the light began, slowly, to change] over {place}',
    '[the air grew colder|the air grew cold and still|the air grew cold and strangely still] around {place}',
    '[shadows grew long|the shadows grew long|the shadows stretched long and thin] across {place}',
    '[a breeze stirred|a cool breeze stirred|a cool breeze stirred the dust] at {place}',
    '[the noise died down|the noise slowly died down|the noise of the day slowly died away] in {place}',
    '[the damp crept in|the damp crept in everywhere|the damp crept into everything] at {place}',
    '[lamps were lit|the first lamps were lit|one by one, the lamps were lit] in {place}',
    '[a chill settled|a chill settled in|a deep chill settled in] over {place}',
  ],
  mods: [
    ', [and {name} looked around|and {name} took it all in|and {name} stopped to take it all in]',
    ' [as the hours passed|as the hours slipped by|as the long hours slipped by]',
    ', [and {npc} shivered|and {npc} shivered a little|and {npc} drew a coat closer against the chill]',
    ', [quiet and slow|slow and quiet|slow and quiet, like a held breath]',
    ' [bit by bit|little by little|little by little, almost unnoticed]',
    ', [as if waiting|as if the place were waiting|as if the whole place were waiting for something]',
  ],
};

/** Opening chapter only; chosen by the seed (an opening happens once per story). */
export const OPENING = {
  scene: [
    '{sky}, and {name} stood at {place} in {worldPlace}',
    'it began, as these things do, at {place} in {worldPlace}, where {sky}',
    'the story of {name} began at {place}, on a day when {sky}',
  ],
  who: [
    '{name} was {trait} and {trait2}, [and people knew it|and most people in {worldPlace} knew it|a reputation earned the hard way]',
    'those who knew {name} called {them} {trait}, and {trait2} [too|as well|as well, when it mattered]',
  ],
  gift: [
    '[{their} special gift was {special}, born of {power}|{they} had a gift called {special}, born of {power}|{they} carried a gift few possessed: {special}, born of {power}]',
    '[{they} could use {special} and {their} {power}|{they} had {special} and {their} {power} to rely on|{they} had {special} and {their} {power} to rely on, when all else failed]',
  ],
  mission: [
    '[The job was simple to say|The task was simple to say and hard to do|The task was easy to state and hard to do]: {mission}',
    '[{name} had one goal|{name} had one goal above all others|{name} had one goal that outweighed every other]: to {mission}',
  ],
  extra: [
    '[{faction} ruled much of {worldPlace}|{faction} held sway over much of {worldPlace}|{faction} held sway over much of {worldPlace}, though not all of it]',
    '[People spoke of {threat}|Folk whispered about {threat}|Folk whispered, in taverns and back rooms alike, about {threat}]',
    '[Some said {artifact} was near|Rumour said {artifact} was close at hand|Rumour said {artifact} lay closer than anyone guessed]',
    '{name} [had heard all of this before|knew all the stories|had heard all the stories, and believed perhaps half of them]',
  ],
  noMission: ['[{name} did not know yet what {they} wanted|{name} had no clear purpose yet|{name} had not yet found a purpose worth the name]'],
};

/** Choice templates by kind: imperative phrases the player can pick (and that normaliseAction reads back). */
export const CHOICES: Record<ActionKind | 'mission', string[]> = {
  combat: ['Confront {threat}', 'Stand your ground against {threat}', 'Set an ambush for {threat}'],
  social: ['Ask {npc} about {artifact}', "Try to win {npc}'s trust", 'Bargain with {faction}'],
  investigate: ['Search {place} for clues', 'Examine {artifact} closely', 'Follow the tracks toward {placeName}'],
  stealth: ['Slip past {threat} unseen', 'Shadow {npc} in secret', 'Sneak into {place} after dark'],
  travel: ['Set out for {placeName}', 'Take the back way out of {place}', 'Head toward {newPlaceName}'],
  rest: ['Rest and tend your wounds', 'Make camp and wait for morning', 'Share a meal with {npc}'],
  craft: ['Use {special}', 'Draw on your {power} to find another way', 'Repair your gear before moving on'],
  bold: ['Do something no one expects', 'Call out {threat} in front of everyone', 'Stake everything on a single bold move'],
  mission: ['Focus on the mission to {mission}', 'Push on and {mission}', 'Ask {npc} how to {mission}'],
};
