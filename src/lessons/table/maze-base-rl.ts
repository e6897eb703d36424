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
      text: 'No time to wait? Load a recorded run (trained before the train/held-out split): greedy walks reach G in 72% of held-out whole 4×4 mazes at step 800 and 95% at 3,600; runs trained on the split reach 89–93% at 3,600. ▶ continues it.',
      show: 'jump',
    },
  ],
  expect:
    "Measured on the CPU engine, headless. On held-out mazes that training never drew (the train/held-out split; a walk counts only if it writes its end within 16 moves), 2 seeds of a base model and RL trained on training mazes only: the base model's greedy walks end on G in 3% of 256 held-out whole 4×4 mazes; after RL 78% / 73% at step 2,400 and 89% / 93% at step 3,600 (on grids training never drew 90% / 95%; about 2 h a run, two runs sharing two cores). The shipped models and recorded runs predate the split: their figures (4 seeds, 57–63% at step 800, 88–91% at 3,000, 94–97% at 3,600 after the lr drop to 3e-4) were measured on mazes drawn as the training ones, most of which training had seen. Most failed walks take a wrong turn at the first or second move; many walks step past G and come back, which the binary reward pays. BODHI, counted on shortest paths (64 held-out mazes with the goal two moves away by two shortest paths, 256 sampled walks each): among the first 4 shortest walks of a maze the base model takes 1.67 distinct paths, the shipped step 2,400 1.49 and step 3,600 1.25 (Simpson evenness 0.29 → 0.20 → 0.11); among the first 4 correct walks 3.92 → 3.41 → 3.28 distinct; walls touched 1.5% → 2.8% → 4.0% of walks, while pass@1 rises 0.12 → 0.83. RL narrows the ways, most after the lr drop; the count of all distinct correct walks (6.9 → 24 per maze) rises only because the detours do. On the two split seeds the narrowing is small (1.64 / 1.48 distinct among 4 shortest walks).",
  charts: ['reward', 'level', 'task', 'entropy'],
  // Half the goals nearer than the level's distance; with the start note it made no difference on
  // the whole task (one seed, 0.605 against 0.602 at step 800; docs/results.md).
  variants: [{ label: 'nearer goals', set: { 'task.nearGoals': 50 } }],
  init: 'checkpoints/maze-base-rl-base.safetensors',
  checkpoints: [
    {
      label: 'base model',
      file: 'checkpoints/maze-base-rl-base.safetensors',
      note: 'seed 1 at step 0: the base model (1,500 warm-start steps on random legal walks, 32 walks a step, sftLr 3e-3) before any RL; its greedy walks end on G in 3% of 256 held-out whole 4×4 mazes (0.027)',
    },
    {
      label: 'step 800',
      file: 'checkpoints/maze-base-rl-step800.safetensors',
      note: 'seed 0 at step 800 of the recorded run (level 6), trained before the train/held-out split: greedy walks end on G in 72% (0.723) of 256 held-out whole 4×4 mazes',
    },
    {
      label: 'step 2,400',
      file: 'checkpoints/maze-base-rl-step2400.safetensors',
      note: 'seed 0 at step 2400 of the recorded run (level 10, the whole task since step 2,131): greedy walks end on G in 88% (0.879) of 256 held-out whole 4×4 mazes (trained before the split)',
    },
    {
      label: 'step 3,000',
      file: 'checkpoints/maze-base-rl-step3000.safetensors',
      note: 'seed 3 at step 3000 of its recorded run (level 10, the whole task since step 2,531), just before the lr drop: greedy walks end on G in 93% (0.934) of 256 held-out whole 4×4 mazes (trained before the split)',
    },
    {
      label: 'step 3,600',
      file: 'checkpoints/maze-base-rl-step3600.safetensors',
      note: 'seed 3 at step 3600 of its recorded run, 600 steps after the lr drop to 3e-4: greedy walks end on G in 95% (0.953) of 256 held-out whole 4×4 mazes (trained before the split)',
    },
  ],
  walks: 'reference/maze-base-rl-walks.json',
};
