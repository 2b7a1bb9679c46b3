/** SPEC §9: what each paid action costs, in credits. */
export const WORLD_CREATION_COST = 3;
export const CHARACTER_GENERATION_COST = 3;
