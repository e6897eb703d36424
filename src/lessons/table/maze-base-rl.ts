// The lesson maze-base-rl: its entry of the lesson table (table/index.ts puts the lessons in order).

import { MAZE_BASE_RL } from '../recipes';
import type { Preset } from '../types';

export const mazeBaseRl: Preset = {
  name: 'maze-base-rl',
  title: 'Mazes: a base model that walks, then RL',
  summary:
    'A model first learns to walk in mazes from random walks that never look at the goal (a base model); RL, rewarded only for ending on the goal, then teaches it to go there.',
  set: {
    ...MAZE_BASE_RL,
    // 3,000 steps at lr 1e-3, then 600 at 3e-4: at a constant 1e-3 the four seeds hovered at
    // 0.84–0.91 on the whole 4×4 over steps 2,600–3,000; the lower lr took all four to 0.94–0.97,
    // 600 more steps at 1e-3 to 0.92–0.94, lower at every checkpoint (docs/results.md). The
    // budget leaves room after the last trained model (step 3,600) for ▶ to continue it.
    steps: 4000,
    lrDropStep: 3000,
    lrDropTo: 3e-4,
  },
  explanation:
    "Two phases, as in RLVR on a pretrained model; the lesson ships the first and runs the second. The base model: 1,500 supervised steps on random legal walks that never look at the goal. The prompt ends with the start cell's note (\"row,column\"), and after each move the walk writes the cell it reached (the walk's scratchpad, as the running product is in the group chains), so every move follows a note of where the walk stands; it learns to read the walls and to know where it is, not to solve. Then RL with a binary reward (1 only for a walk that ends on the goal without entering a wall), GRPO on 32 mazes × 4 walks a step with dynamic sampling (groups whose walks all scored the same are replaced by fresh mazes, up to 4 rounds), a curriculum on the goal's distance (one or two moves, then three, then three or four, …, up to the whole 4×4) that moves on once 90% of held-out mazes pass, a KL anchor (k3, β 0.05) to the base model that keeps its legal moves and true notes, a uniform regulator (α 0.01) and a learning rate of 1e-3 (at 3e-3 the notes were lost within 25 steps and the walks stalled), lowered to 3e-4 after step 3,000 (at 1e-3 the seeds had hovered at 84–91% of whole mazes since step 2,600; 600 steps at 3e-4 took all four to 94–97%, where 600 more at 1e-3 gave 86–95% on the way and 92–94% at the end, lower at every checkpoint; figures on mazes drawn as in training, before the train/held-out split). Many mazes per step matter more than many walks per maze: the policy must learn where the goal is from here. BODHI argues that RLVR narrows the ways a model solves a maze (fewer distinct correct paths) while it improves its respect for the walls: compare the base model's walks with the trained one's.",
  guide: [
    {
      text: 'First load the base model (trained ▾): RL starts from it. Without it, ▶ runs RL from random weights, which has not learned mazes in any measured run.',
      show: 'jump',
    },
    {
      text: "The prompt is a 4×4 maze and the start cell; the answer is a walk from S, and after each move the model writes the cell it reached. The base model's walks wander and rarely stop on G, but keep to the open cells.",
      show: 'group',
    },
    {
      text: 'Press ▶: now only ending on G is rewarded. The goal starts one or two moves away; the level rises when 90% of held-out mazes pass.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'Open a group: each walk is drawn on the maze, coloured by its advantage; a walk into a wall is marked where it hit.',
      show: 'group',
      needs: 'advantages',
    },
    {
      text: 'Does RL keep several ways to the goal, or one? "Ways to G" beside the group\'s maze draws 256 recorded walks of the base model beside 256 of a trained one, on held-out mazes with two shortest paths: count how often each shortest path is taken, not the detours.',
      show: 'chart-task',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load a recorded run (trained on training mazes only): greedy walks reach G in 70% of held-out whole 4×4 mazes at step 800 and 92% at 3,600 (4 seeds: 89–93%). ▶ continues it.',
      show: 'jump',
    },
  ],
  expect:
    "Measured on the CPU engine, headless, on held-out mazes that training never drew (the train/held-out split; a walk counts only if it writes its end within 16 moves). 4 seeds of RL from one base model, both trained on training mazes only: the base model's greedy walks end on G in 3% of 256 held-out whole 4×4 mazes; after RL 73–84% at step 2,400 and 89–93% at step 3,600 (mean 92%; on grids training never drew 89–95%; about 2 h a run on one core). Before the split the same recipe read 94–97% at step 3,600, on mazes most of which training had seen. Most failed walks take a wrong turn in the first moves; many walks step past G and come back, which the binary reward pays. BODHI, counted on shortest paths (64 held-out mazes with the goal two moves away by two shortest paths, 256 sampled walks each): the base model takes 1.39 of the 2 shortest paths per maze; the 4 seeds at step 3,600 take 0.56–1.14, and the Simpson evenness of the shortest walks falls from 0.22 to 0.10 / 0.09 (seeds 2, 3); walls touched at any point 3.3% → 3.5–6.4% of walks, while pass@1 rises 0.11 → 0.73–0.85. RL narrows the ways to G. Counting all distinct correct walks says the opposite (24 → 150 per maze), because most of RL's correct walks to a near goal detour. The lesson's trained models are seed 2's.",
  charts: ['reward', 'level', 'task', 'entropy'],
  // Half the goals nearer than the level's distance; with the start note it made no difference on
  // the whole task (one seed, 0.605 against 0.602 at step 800; docs/results.md).
  variants: [{ label: 'nearer goals', set: { 'task.nearGoals': 50 } }],
  init: 'checkpoints/maze-base-rl-base.safetensors',
  checkpoints: [
    {
      label: 'base model',
      file: 'checkpoints/maze-base-rl-base.safetensors',
      note: 'seed 1 at step 0: the base model (1,500 warm-start steps on random legal walks in training mazes only, 32 walks a step, sftLr 3e-3) before any RL; its greedy walks end on G in 3% of 256 held-out whole 4×4 mazes (0.031)',
    },
    {
      label: 'step 800',
      file: 'checkpoints/maze-base-rl-step800.safetensors',
      note: 'seed 2 at step 800 of its recorded run (level 6), trained on training mazes only: greedy walks end on G in 70% (0.695) of 256 held-out whole 4×4 mazes',
    },
    {
      label: 'step 2,400',
      file: 'checkpoints/maze-base-rl-step2400.safetensors',
      note: 'seed 2 at step 2400 of its recorded run (level 10, the whole task since step 2,331): greedy walks end on G in 84% (0.840) of 256 held-out whole 4×4 mazes',
    },
    {
      label: 'step 3,000',
      file: 'checkpoints/maze-base-rl-step3000.safetensors',
      note: 'seed 2 at step 3000 of its recorded run, just before the lr drop: greedy walks end on G in 83% (0.828) of 256 held-out whole 4×4 mazes',
    },
    {
      label: 'step 3,600',
      file: 'checkpoints/maze-base-rl-step3600.safetensors',
      note: 'seed 2 at step 3600 of its recorded run, 600 steps after the lr drop to 3e-4: greedy walks end on G in 92% (0.922) of 256 held-out whole 4×4 mazes',
    },
  ],
  walks: 'reference/maze-base-rl-walks.json',
};
