// The lesson maze-5x5: its entry of the lesson table (table/index.ts puts the lessons in order).

import { MAZE_WALL_5X5 } from '../recipes';
import type { Preset } from '../types';

export const maze5x5: Preset = {
  name: 'maze-5x5',
  title: 'Mazes 5×5: keep a hand on the wall, then RL',
  summary:
    'Where the shortest path is beyond a small model, a walk that needs no plan is not: a warm start on walks that keep the right hand on the wall, then RL rewarded only for ending on the goal.',
  set: {
    ...MAZE_WALL_5X5,
    // The recorded runs are 300 steps; the budget leaves room for ▶ to continue them.
    steps: 1000,
  },
  explanation:
    "Two phases. The warm start: 4,000 supervised steps (32 walks a step) on walks that keep the right hand on the wall until they stand on G: at each cell the first open way from the right round, into dead ends and back out. In a maze without loops that walk always arrives, and within the 25-move budget it does in 96% of 5×5 mazes (for the rest the warm start is shown a shortest path). Why not the shortest path, which maze-base-rl's RL finds on 4×4? Its first move, the exit of S that leads to G, needs the whole path in one pass: told the shortest path on 64,000 mazes, this model (width 32, 2 layers) ends on G in 59% of whole 5×5 mazes, and RL from a base model of random walks stopped at the same 60%. The wall needs no plan, only the walls round the cell the walk stands on and the way it came. Then RL, rewarded only for ending on G without entering a wall, on whole mazes from the first step: GRPO on 32 mazes × 4 walks a step with dynamic sampling (groups whose walks all scored the same are replaced by fresh mazes, up to 4 rounds), a KL anchor (k3, β 0.05) to the warm start, no regulator (it pulled a near-certain wall walker toward uniform) and lr 3e-4. A warm start on demonstrations is not a base model: it knows where G is, to stop there. It is how RLVR is mostly done (supervised first, then RL), and it shows what RL does not do here: take a model past a policy it cannot hold.",
  guide: [
    {
      text: 'First load the warm start (trained ▾): 4,000 supervised steps on walks that keep the right hand on the wall until G. RL starts from it.',
      show: 'jump',
    },
    {
      text: "The prompt is a 5×5 maze and the start cell. The warm start's walks hug the wall, into dead ends and back, and stop on G in most mazes: detours are paid, only the end counts.",
      show: 'group',
    },
    {
      text: 'Press ▶: only ending on G is rewarded, on whole mazes. Most groups are all right; dynamic sampling looks for mazes where the four walks differ.',
      show: 'chart-groups',
      needs: 'step',
    },
    {
      text: 'Why the wall? Told the shortest path, this model ends on G in 59% of 5×5 mazes: the first move needs the whole path in one pass. RL polishes a policy the model can hold; it did not find one it cannot.',
      show: 'chart-reward',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load step 300 of a recorded run: greedy walks end on G in 96% of whole 5×5 mazes (the warm start: 95%; a weaker warm start of 83% rose to 94% in 200 steps).',
      show: 'jump',
    },
  ],
  expect:
    "Measured on the CPU engine, headless. On the train/held-out split (warm start and RL on training mazes only; 256 held-out whole 5×5 mazes, a walk right only with its end token within 25 moves), 4 seeds: the warm starts end on G in 92% / 92% / 91% / 93%, and 200 RL steps take them to 96% / 94% / 94% / 96% (RL adds 2–4 points on every seed, most in the first 100 steps). The figures that follow predate the split and the strict budget. The warm start, 4,000 supervised steps on right-hand walks to G (about 20 min a seed, two runs sharing two cores): its greedy walks end on G in 83% / 95% / 97% / 92% of 256 held-out whole 5×5 mazes (seeds 0–3); the shipped one is seed 1 (0.949). RL from it, 3 seeds of 300 steps (about 19 min each): 0.969 / 0.969 / 0.965 at step 100 and 0.969 / 0.965 / 0.969 at step 300 (seeds 0–2), its sampled walks 0.92 → 0.96 on held-out mazes. RL from each seed's own warm start (the same seed for both phases): 0.938 / 0.965 / 0.977 / 0.961 (seeds 0–3 after 200 steps, seed 1 after 300): 4 of 4 past 0.9, where the warm starts alone passed on 3 of 4. Told the shortest path instead, the same model ends on G in 59% of whole 5×5 mazes after 2,000 supervised steps; RL from a base model of random walks reached 57–62% (4 seeds, H200). Where the walks fail, they have left the wall: on 256 other mazes, seed 1 at step 300 keeps a hand on the wall to G in 232 walks, and its failures are among the 24 that leave both hands.",
  charts: ['reward', 'task', 'entropy', 'groups'],
  init: 'checkpoints/maze-5x5-warm-start.safetensors',
  checkpoints: [
    {
      label: 'warm start',
      file: 'checkpoints/maze-5x5-warm-start.safetensors',
      note: "seed 1 at step 0: the warm start (4,000 supervised steps on right-hand walks to G, 32 walks a step, sftLr 3e-3, seed 1) under this lesson's settings; its greedy walks end on G in 95% (0.945 with the strict budget) of 256 held-out whole 5×5 mazes (trained before the train/held-out split)",
    },
    {
      label: 'step 300',
      file: 'checkpoints/maze-5x5-step300.safetensors',
      note: 'seed 1 at step 300 of its recorded run (trained before the train/held-out split): greedy walks end on G in 96% (0.965) of 256 held-out whole 5×5 mazes, strict budget',
    },
  ],
};
