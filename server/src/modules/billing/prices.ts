/** SPEC §9: what each paid action costs, in credits. */
export { CHARACTER_GENERATION_COST, WORLD_CREATION_COST } from '../shared/limits';
