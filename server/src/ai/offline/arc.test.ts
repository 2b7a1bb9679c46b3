/**
 * An arc's goal is the story's refrain (said again every few chapters): with the world's own danger
 * it is about that world; a stock danger from the genre's pool became the story's stock phrase ("a
 * railroad baron's hired guns" in 30% of a Saltbone Crossing story's chapters).
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import { buildWorldMaterial } from '../world-material';
import { arcOf } from './arc';
import { groundedWorld } from './grounded';

it('names the world’s own danger, not a stock one, when the world names one', () => {
  const saltbone = FEATURED_WORLDS.find((w) => w.name === 'Saltbone Crossing') as (typeof FEATURED_WORLDS)[number];
  const material = buildWorldMaterial(saltbone);
  const world = groundedWorld(saltbone.description, material, 'Mara Vell');
  const own = material.threats ?? [];
  expect(own.length).toBeGreaterThan(0);
  const stock = world.genre.threats.filter((t) => !own.includes(t));
  expect(stock.length).toBeGreaterThan(0);
  const goals = Array.from({ length: 60 }, (_, key) => [arcOf(world, key, 0).goal, arcOf(world, key, 3).goal]).flat();
  // (Here the one danger is also the one faction: "who in X stands behind X" takes a stock danger.)
  for (const goal of goals.filter((g) => !/who in .* stands behind/.test(g))) for (const t of stock) expect([goal, goal.includes(t)]).toEqual([goal, false]);
  expect(goals.some((g) => own.some((t) => g.includes(t)))).toBe(true);
});
