// The engine's GPT-2 written in TF.js ops, for the peers benchmark: the same tensors (Hugging
// Face layout and names, the weights of our parameter buffer), the same train step (forward,
// log-probs of the targets × advantages, backward, global-norm clip, AdamW) and KV-cache
// sampling, the way a TF.js user would write them: one variable per tensor, autodiff with
// tf.variableGrads, AdamW by hand (TF.js has Adam without decoupled weight decay), the cache
// grown with concat, tokens drawn with tf.multinomial.
//
// Letters: N sequences, T positions, C channels, NH heads, hd = C/NH, V vocab, R = N·T rows.

import type * as TF from '@tensorflow/tfjs-core';
import type { ParamLayout, TensorSlot } from '../../model/layout';
import type { AdamWHyper } from '../../reference/model';
import type { Tf } from './tfjs-runtime';

export interface TfTrainBatch {
  tokens: TF.Tensor2D; // [N,T] int32
  targets: TF.Tensor1D; // [R] int32 (a row without a target has mask 0; its target is 0)
  advMask: TF.Tensor1D; // [R] advantage × loss mask
  /** Σ mask: the loss is a mean over the trained tokens. */
  count: number;
}

let models = 0;

export class TfjsGpt2 {
  private readonly vars: TF.Variable[];
  private readonly bySlot = new Map<TensorSlot, TF.Variable>();
  private readonly m: TF.Variable[];
  private readonly v: TF.Variable[];
  private readonly decay: boolean[];
  private readonly masks = new Map<number, TF.Tensor2D>();
  private step = 0;

  /** `maxAddN`: inputs one addN may take on this device (its storage-buffer limit less the output). */
  constructor(
    private readonly tf: Tf,
    readonly layout: ParamLayout,
    initial: Float32Array,
    private readonly maxAddN: number,
  ) {
    const id = models++;
    this.vars = layout.slots.map((s) => {
      const init = tf.tensor(initial.subarray(s.offset, s.offset + s.size), s.shape);
      const v = tf.variable(init, true, `peer${id}/${s.name}`);
      init.dispose(); // the variable holds its own reference to the data
      this.bySlot.set(s, v);
      return v;
    });
    const zeros = (v: TF.Variable, what: string) => {
      const z = tf.zerosLike(v);
      const state = tf.variable(z, false, `${v.name}/${what}`);
      z.dispose();
      return state;
    };
    this.m = this.vars.map((v) => zeros(v, 'adam_m'));
    this.v = this.vars.map((v) => zeros(v, 'adam_v'));
    this.decay = layout.slots.map((s) => s.decay);
  }

  private p(s: TensorSlot): TF.Variable {
    return this.bySlot.get(s)!;
  }

  /** [T,T]: 0 on and below the diagonal, −1e9 above (added to the scores). */
  private causalMask(T: number): TF.Tensor2D {
    let m = this.masks.get(T);
    if (!m) {
      const { tf } = this;
      m = tf.keep(tf.tidy(() => tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([T, T]), -1, 0)), -1e9) as TF.Tensor2D));
      this.masks.set(T, m);
    }
    return m;
  }

  private layerNorm(x: TF.Tensor, w: TensorSlot, b: TensorSlot): TF.Tensor {
    const { tf } = this;
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), this.p(w)), this.p(b));
  }

  private linear(x: TF.Tensor, w: TensorSlot, b: TensorSlot): TF.Tensor {
    return this.tf.add(this.tf.matMul(x as TF.Tensor2D, this.p(w) as TF.Tensor2D), this.p(b));
  }

  /** GPT-2's tanh approximation ("gelu_new"). */
  private gelu(x: TF.Tensor): TF.Tensor {
    const { tf } = this;
    const inner = tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3))));
    return tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(inner)));
  }

  /** The MLP half of a block, on rows x [rows, C]. */
  private mlp(x: TF.Tensor, l: number): TF.Tensor {
    const b = this.layout.blocks[l];
    const h = this.gelu(this.linear(this.layerNorm(x, b.ln2w, b.ln2b), b.fcw, b.fcb));
    return this.tf.add(x, this.linear(h, b.fcprojw, b.fcprojb));
  }

  /** Teacher-forced logits [R,V] of tokens [N,T]. */
  forward(tokens: TF.Tensor2D): TF.Tensor2D {
    const { tf, layout } = this;
    const { nEmbd: C, nHead: NH } = layout.config;
    const [N, T] = tokens.shape;
    const R = N * T;
    const hd = C / NH;
    const emb = tf.reshape(tf.gather(this.p(layout.wte), tf.reshape(tokens, [R])), [N, T, C]);
    let x: TF.Tensor = tf.reshape(tf.add(emb, tf.slice(this.p(layout.wpe), [0, 0], [T, C])), [R, C]);
    // [R,C] → [N,NH,T,hd]
    const heads = (t: TF.Tensor) => tf.transpose(tf.reshape(t, [N, T, NH, hd]), [0, 2, 1, 3]);
    layout.blocks.forEach((b, l) => {
      const [q, k, v] = tf.split(this.linear(this.layerNorm(x, b.ln1w, b.ln1b), b.qkvw, b.qkvb), 3, 1);
      const scores = tf.add(tf.mul(tf.matMul(heads(q), heads(k), false, true), 1 / Math.sqrt(hd)), this.causalMask(T));
      const y = tf.reshape(tf.transpose(tf.matMul(tf.softmax(scores), heads(v)), [0, 2, 1, 3]), [R, C]);
      x = this.mlp(tf.add(x, this.linear(y, b.attprojw, b.attprojb)), l);
    });
    // tied head: logits = lnf(x)·wteᵀ
    return tf.matMul(
      this.layerNorm(x, layout.lnfw, layout.lnfb) as TF.Tensor2D,
      this.p(layout.wte) as TF.Tensor2D,
      false,
      true,
    );
  }

  /** log π(target) [R] of every row. */
  tokenLogp(tokens: TF.Tensor2D, targets: TF.Tensor1D): TF.Tensor1D {
    const { tf } = this;
    const V = this.layout.config.vocabSize;
    return tf.sum(tf.mul(tf.logSoftmax(this.forward(tokens)), tf.oneHot(targets, V)), 1) as TF.Tensor1D;
  }

  /** Σ of many tensors of one shape, in addN calls within the device's binding limit. */
  private sumMany(xs: TF.Tensor[]): TF.Tensor {
    const { tf } = this;
    let level = xs;
    while (level.length > 1) {
      const next: TF.Tensor[] = [];
      for (let i = 0; i < level.length; i += this.maxAddN) {
        const chunk = level.slice(i, i + this.maxAddN);
        next.push(chunk.length === 1 ? chunk[0] : tf.addN(chunk));
      }
      level = next;
    }
    return level[0];
  }

  /**
   * One train step: loss −Σ adv·mask·logp / Σ mask, gradients, global-norm clip, AdamW.
   * Returns the gradient norm before clipping (a scalar the caller disposes).
   */
  trainStep(batch: TfTrainBatch, h: AdamWHyper): TF.Scalar {
    const { tf } = this;
    const t = ++this.step;
    const bc1 = 1 - Math.pow(h.beta1, t);
    const bc2 = 1 - Math.pow(h.beta2, t);
    return tf.tidy(() => {
      const { grads } = tf.variableGrads(() => {
        const logp = this.tokenLogp(batch.tokens, batch.targets);
        return tf.div(tf.neg(tf.sum(tf.mul(logp, batch.advMask))), batch.count) as TF.Scalar;
      }, this.vars);
      const gs = this.vars.map((v) => grads[v.name]);
      const norm = tf.sqrt(this.sumMany(gs.map((g) => tf.sum(tf.square(g))))) as TF.Scalar;
      const clip = h.maxGradNorm > 0 ? tf.minimum(1, tf.div(h.maxGradNorm, tf.add(norm, 1e-6))) : tf.scalar(1);
      this.vars.forEach((p, i) => {
        const g = tf.mul(gs[i], clip);
        const m = tf.add(tf.mul(this.m[i], h.beta1), tf.mul(g, 1 - h.beta1));
        const v = tf.add(tf.mul(this.v[i], h.beta2), tf.mul(tf.square(g), 1 - h.beta2));
        this.m[i].assign(m);
        this.v[i].assign(v);
        let update = tf.div(tf.div(m, bc1), tf.add(tf.sqrt(tf.div(v, bc2)), h.eps));
        if (this.decay[i] && h.weightDecay !== 0) update = tf.add(update, tf.mul(p, h.weightDecay));
        p.assign(tf.sub(p, tf.mul(update, h.lr)));
      });
      return norm;
    });
  }

  /**
   * Samples N sequences of T tokens from BOS with a KV cache: per position, the new row of
   * every block, its keys and values appended to the cache, a token from tf.multinomial, its
   * log-prob and the entropy. Returns tokens [N,T−1], logp and entropy [N,T−1] (on the GPU).
   */
  sample(
    N: number,
    T: number,
    bos: number,
    seed: number,
  ): { tokens: TF.Tensor2D; logp: TF.Tensor2D; entropy: TF.Tensor2D } {
    const { tf, layout } = this;
    const { nEmbd: C, nHead: NH, vocabSize: V } = layout.config;
    const hd = C / NH;
    const L = layout.blocks.length;
    let keys: TF.Tensor[] = []; // per layer [N,NH,pos,hd]
    let values: TF.Tensor[] = [];
    let token: TF.Tensor1D = tf.fill([N], bos, 'int32');
    const tokens: TF.Tensor1D[] = [],
      logps: TF.Tensor1D[] = [],
      entropies: TF.Tensor1D[] = [];
    for (let pos = 0; pos + 1 < T; pos++) {
      const out = tf.tidy(() => {
        let x: TF.Tensor = tf.add(tf.gather(this.p(layout.wte), token), tf.slice(this.p(layout.wpe), [pos, 0], [1, C])); // [N,C]
        const newKeys: TF.Tensor[] = [],
          newValues: TF.Tensor[] = [];
        layout.blocks.forEach((b, l) => {
          const [q, k, v] = tf.split(this.linear(this.layerNorm(x, b.ln1w, b.ln1b), b.qkvw, b.qkvb), 3, 1); // [N,C] each
          const row = (t: TF.Tensor) => tf.reshape(t, [N, NH, 1, hd]);
          const K = pos === 0 ? row(k) : tf.concat([keys[l], row(k)], 2);
          const Vv = pos === 0 ? row(v) : tf.concat([values[l], row(v)], 2);
          const att = tf.softmax(tf.mul(tf.matMul(row(q), K, false, true), 1 / Math.sqrt(hd))); // [N,NH,1,pos+1]
          const y = tf.reshape(tf.matMul(att, Vv), [N, C]);
          x = this.mlp(tf.add(x, this.linear(y, b.attprojw, b.attprojb)), l);
          newKeys.push(K);
          newValues.push(Vv);
        });
        const logits = tf.matMul(
          this.layerNorm(x, layout.lnfw, layout.lnfb) as TF.Tensor2D,
          this.p(layout.wte) as TF.Tensor2D,
          false,
          true,
        );
        const next = tf.reshape(tf.multinomial(logits as TF.Tensor2D, 1, seed + pos), [N]) as TF.Tensor1D;
        const lp = tf.logSoftmax(logits);
        const logp = tf.sum(tf.mul(lp, tf.oneHot(next, V)), 1) as TF.Tensor1D;
        const entropy = tf.neg(tf.sum(tf.mul(tf.exp(lp), lp), 1)) as TF.Tensor1D;
        return { next, logp, entropy, newKeys, newValues };
      });
      for (let l = 0; l < L && pos > 0; l++) {
        keys[l].dispose();
        values[l].dispose();
      }
      keys = out.newKeys;
      values = out.newValues;
      token.dispose();
      token = out.next;
      tokens.push(tf.clone(out.next));
      logps.push(out.logp);
      entropies.push(out.entropy);
    }
    const stack = (xs: TF.Tensor1D[]) => {
      const s = tf.stack(xs, 1) as TF.Tensor2D;
      tf.dispose(xs);
      return s;
    };
    tf.dispose([...keys, ...values, token]);
    return { tokens: stack(tokens), logp: stack(logps), entropy: stack(entropies) };
  }

  dispose(): void {
    this.tf.dispose([...this.vars, ...this.m, ...this.v, ...this.masks.values()]);
  }
}
