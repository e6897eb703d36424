#!/usr/bin/env python3
"""The peers benchmark's workload in PyTorch, for machines with PyTorch and a CUDA GPU.

Same GPT-2 sizes as `npm run bench -- peers` (V 64, Tmax 32; C/L/NH 32/2/2, 64/4/4, 128/5/4:
28,544 / 206,208 / 1,003,904 parameters), Hugging Face GPT2LMHeadModel (tied head, gelu_new,
LayerNorm eps 1e-5, no dropout), the same batch (N x T, default 64 x 32; --quick 8 x 16):

  train step  forward, log-probs of the targets x advantages (loss = -sum(adv * mask * logp) /
              sum(mask)), backward, global-norm clip 1.0, AdamW (lr 1e-4, betas 0.9/0.999,
              eps 1e-8, weight decay 0.01 on tensors of rank >= 2), then the gradient norm is
              read back; eager, and the whole step captured as one CUDA graph and replayed;
  sampling    N sequences of T tokens from BOS with the KV cache (past_key_values), a token per
              step from the softmax (torch.multinomial), its log-prob and the entropy; tokens,
              log-probs and entropies copied to the host once at the end.

Timing: wall clock with torch.cuda.synchronize(), after warm-up runs, median of --reps.
Prints JSON on stdout (and writes it to --json FILE if given).

  pip install torch transformers
  python3 bench/peers/torch_gpt2.py            # 64 x 32, the three sizes
  python3 bench/peers/torch_gpt2.py --quick    # 8 x 16
"""

import argparse
import json
import math
import statistics
import sys
import time

import torch
import transformers
from transformers import GPT2Config, GPT2LMHeadModel

MODELS = {
    # name: (n_embd, n_layer, n_head, parameters as the engine counts them)
    "30K": (32, 2, 2, 28_544),
    "200K": (64, 4, 4, 206_208),
    "1M": (128, 5, 4, 1_003_904),
}
VOCAB = 64
POSITIONS = 32
BOS = 1
ADAMW = dict(lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
MAX_GRAD_NORM = 1.0


def build_model(name, device):
    n_embd, n_layer, n_head, expected = MODELS[name]
    config = GPT2Config(
        vocab_size=VOCAB, n_positions=POSITIONS, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
        activation_function="gelu_new", layer_norm_epsilon=1e-5,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, tie_word_embeddings=True,
        bos_token_id=BOS, eos_token_id=BOS,
    )
    torch.manual_seed(0)
    model = GPT2LMHeadModel(config).to(device)
    model.train()  # dropout is 0 anyway
    params = sum(p.numel() for p in model.parameters())  # the tied head counts once
    if params != expected:
        raise SystemExit(f"model {name}: {params} parameters, the engine's has {expected}")
    return model, params


def make_optimizer(model, capturable):
    # GPT-2 practice, as the engine: decay every tensor of rank >= 2 (embeddings included).
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": ADAMW["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=ADAMW["lr"], betas=ADAMW["betas"], eps=ADAMW["eps"], capturable=capturable)


def make_batch(N, T, device):
    g = torch.Generator().manual_seed(11)
    tokens = torch.randint(0, VOCAB, (N, T), generator=g)
    targets = torch.roll(tokens, -1, dims=1)  # row t predicts token t+1
    mask = torch.ones(N, T)
    mask[:, -1] = 0  # the last row has no target
    adv = torch.randn(N, T, generator=g)
    return tokens.to(device), targets.to(device), (adv * mask).to(device), float(mask.sum())


def pg_loss(model, tokens, targets, adv_mask, count):
    logits = model(input_ids=tokens, use_cache=False).logits  # [N,T,V]
    logp = torch.log_softmax(logits.float(), dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # [N,T]
    return -(logp * adv_mask).sum() / count


def train_step(model, opt, batch):
    opt.zero_grad(set_to_none=True)
    loss = pg_loss(model, *batch)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
    opt.step()
    return norm


def timed(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": statistics.median(samples), "min_ms": min(samples), "samples_ms": samples}


def bench_eager_step(model, batch, warmup, reps):
    opt = make_optimizer(model, capturable=False)
    return timed(lambda: train_step(model, opt, batch).item(), warmup, reps)


def bench_graph_step(model, batch, warmup, reps):
    """The whole step (forward, backward, clip, AdamW) captured once and replayed."""
    opt = make_optimizer(model, capturable=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up on a side stream before capture, as the docs ask
        for _ in range(3):
            train_step(model, opt, batch)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        loss = pg_loss(model, *batch)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        opt.step()

    def replay():
        graph.replay()
        return norm.item()

    return timed(replay, warmup, reps)


@torch.no_grad()
def sample(model, N, T, device):
    token = torch.full((N, 1), BOS, dtype=torch.long, device=device)
    past = None
    tokens, logps, entropies = [], [], []
    for _ in range(T - 1):
        out = model(input_ids=token, past_key_values=past, use_cache=True)
        past = out.past_key_values
        lp = torch.log_softmax(out.logits[:, -1, :].float(), dim=-1)  # [N,V]
        token = torch.multinomial(lp.exp(), 1)  # [N,1]
        tokens.append(token)
        logps.append(lp.gather(-1, token))
        entropies.append(-(lp.exp() * lp).sum(-1, keepdim=True))
    return torch.cat(tokens, 1).cpu(), torch.cat(logps, 1).cpu(), torch.cat(entropies, 1).cpu()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="8 x 16 instead of 64 x 32")
    ap.add_argument("--batch", type=int, help="N sequences (default 64; --quick 8)")
    ap.add_argument("--time", type=int, help="T positions, <= 32 (default 32; --quick 16)")
    ap.add_argument("--models", default=",".join(MODELS), help="comma-separated subset of " + ",".join(MODELS))
    ap.add_argument("--reps", type=int, default=20, help="timed runs; medians are reported (default 20)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed runs first (default 5)")
    ap.add_argument("--no-graph", action="store_true", help="skip the CUDA-graph train step")
    ap.add_argument("--json", help="also write the JSON here")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("this benchmark needs a CUDA GPU (torch.cuda.is_available() is False)")
    N = args.batch or (8 if args.quick else 64)
    T = args.time or (16 if args.quick else 32)
    if not 2 <= T <= POSITIONS:
        raise SystemExit(f"--time must be in [2, {POSITIONS}]")
    device = torch.device("cuda")
    result = {
        "suite": "peers (PyTorch)",
        "device": torch.cuda.get_device_name(device),
        "torch": torch.__version__, "transformers": transformers.__version__, "cuda": torch.version.cuda,
        "N": N, "T": T, "reps": args.reps, "warmup": args.warmup, "models": [],
    }
    for name in args.models.split(","):
        name = name.strip()
        if name not in MODELS:
            raise SystemExit(f"unknown model {name}; allowed: {', '.join(MODELS)}")
        model, params = build_model(name, device)
        batch = make_batch(N, T, device)
        r = {"name": name, "params": params, "eager": {}, "graph": None}
        r["eager"]["train_step"] = bench_eager_step(model, batch, args.warmup, args.reps)
        s = timed(lambda: sample(model, N, T, device), args.warmup, args.reps)
        s["tokens_per_s"] = N * (T - 1) / (s["median_ms"] / 1e3)
        r["eager"]["sampling"] = s
        if not args.no_graph:
            try:
                r["graph"] = {"train_step": bench_graph_step(model, batch, args.warmup, args.reps)}
            except Exception as e:  # an HF version whose forward syncs with the host cannot be captured
                r["graph"] = {"error": f"{type(e).__name__}: {e}"}
        result["models"].append(r)
        graph_ms = (r["graph"] or {}).get("train_step", {}).get("median_ms", math.nan)
        print(f"{name}: train step eager {r['eager']['train_step']['median_ms']:.3g} ms, CUDA graph {graph_ms:.3g} ms; "
              f"sampling {s['tokens_per_s']:.4g} tok/s", file=sys.stderr)
    text = json.dumps(result, indent=2)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
