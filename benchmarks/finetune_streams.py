"""A training step's forward and backward on the CPU: the micro-batch on one stream, or its clips shared out.

MLX runs a CPU stream's kernels on one thread (OpenBLAS's products on its own threads), so one idea for full
fine-tuning's step (issue 64) is to split a micro-batch's clips in two and run the halves at once, each half's
losses taken over the whole micro-batch's labels (`share_of_loss`) so the two
gradients add up to the whole's. Three ways, on the --preset's shapes (random weights, float32, the benchmark's
batch of `benchmarks.finetune`), each a compiled `nn.value_and_grad` of the loss, evaluated:
- one: the whole micro-batch on the default stream (as training runs it), OpenBLAS on its default threads;
- streams: the two halves on two CPU streams, evaluated together (one `mx.eval`);
- threads: the two halves in two Python threads, each with its own stream and its own copy of the talker's
  modules over the same weight arrays (a module is traced by one thread at a time), then the gradients summed;
the last two with OpenBLAS at --blas-threads threads. Ways alternate in rotated order round by round; the
process's CPU seconds are shown beside each wall time (two cores busy: twice the wall time).

    PYTHONPATH=$PWD python -m benchmarks.finetune_streams --preset 0.6B --rounds 3 --blas-threads 1
"""

import argparse
import ctypes
import resource
import statistics
import threading
import time

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core on Linux)
import mlx.core as mx  # noqa: E402
import mlx.nn as nn  # noqa: E402
from mlx.utils import tree_flatten, tree_map  # noqa: E402

from mlx_qwen3tts.finetune import objective  # noqa: E402

from benchmarks import checkpoints  # noqa: E402
from benchmarks.finetune import items, training  # noqa: E402


def label_counts(batch):
    """(the talker's labels, the predictor's labels) of a batch."""
    return batch.talker_mask.sum(), batch.predictor_mask.sum()


def share_of_loss(talker, batch, counts):
    """`objective.losses` of `batch` (its own means) weighted by its share of `counts` (the whole micro-batch's
    labels, talker's and predictor's): the parts' losses and gradients add up to the whole's."""
    talker_ce, predictor_ce = objective.losses(talker, batch)
    own = label_counts(batch)
    return talker_ce * own[0] / counts[0] + objective.PREDICTOR_WEIGHT * predictor_ce * own[1] / counts[1]


def grad_fn(talker):
    """The compiled value and gradient of `share_of_loss`, as the trainer compiles its step."""
    fn = nn.value_and_grad(talker, lambda counts, *arrays: share_of_loss(talker, objective.Batch(*arrays), counts))
    state = [talker.state, mx.random.state]
    return mx.compile(fn, inputs=state, outputs=state)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Ways:
    def __init__(self, args):
        self.blas = ctypes.CDLL("libopenblas.so.0")
        self.default_threads = self.blas.openblas_get_num_threads()
        self.blas_threads = args.blas_threads
        folder = checkpoints.checkpoint(args.preset, "bf16", args.cache)
        talkers = []
        for _ in range(2):  # the second's modules take the first's weight arrays
            mx.random.seed(0)
            base = training.load_base(folder, "full", "float32")
            talkers.append(base.model.talker)
        talkers[1].update(talkers[0].parameters())
        hidden = talkers[0].codec_head.weight.shape[1]
        examples = [objective.example(i, base.tokenizer, base.config)
                    for i in items(2 * args.clips, args.frames, args.tokens, hidden)]
        eos = base.config.talker_config.codec_eos_token_id
        self.whole = objective.collate(examples, eos, pad_to=training.PAD_TO)
        self.halves = [objective.collate(examples[i::2], eos, pad_to=training.PAD_TO) for i in range(2)]
        self.counts = label_counts(self.whole)
        mx.eval(self.whole, self.halves, self.counts, mx.random.state, talkers[0].parameters())
        self.grads = [grad_fn(t) for t in talkers]
        self.two_streams = [mx.default_stream(mx.cpu), mx.new_stream(mx.cpu)]

    def one(self):
        self.blas.openblas_set_num_threads(self.default_threads)
        out = self.grads[0](self.counts, *self.whole)
        mx.eval(out)
        return out

    def streams(self):
        self.blas.openblas_set_num_threads(self.blas_threads)
        outs = []
        for stream, half in zip(self.two_streams, self.halves):
            with mx.stream(stream):
                outs.append(self.grads[0](self.counts, *half))
        mx.eval(outs)
        return self.added(outs)

    def threads(self):
        self.blas.openblas_set_num_threads(self.blas_threads)
        outs = [None, None]

        def run(i):
            with mx.stream(mx.new_stream(mx.cpu)):  # streams belong to the thread that made them
                outs[i] = self.grads[i](self.counts, *self.halves[i])
                mx.eval(outs[i])

        workers = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return self.added(outs)

    @staticmethod
    def added(outs):
        (loss_a, grads_a), (loss_b, grads_b) = outs
        total = (loss_a + loss_b, tree_map(mx.add, grads_a, grads_b))
        mx.eval(total)
        return total


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--clips", type=int, default=1, help="clips a half (the micro-batch holds twice as many)")
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--tokens", type=int, default=30)
    ap.add_argument("--blas-threads", type=int, default=1, help="OpenBLAS's threads while the halves run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", default=checkpoints.DEFAULT_CACHE)
    args = ap.parse_args(argv)
    ways = Ways(args)
    with training.buffers_kept():
        (loss, grads), (loss_halves, grads_halves) = ways.one(), ways.threads()  # warm-up; the sums agree
        gap = max(float(mx.abs(a - b).max()) for (_, a), (_, b) in zip(tree_flatten(grads), tree_flatten(grads_halves)))
        print(f"loss whole {loss.item():.6f}, halves {loss_halves.item():.6f}; largest gradient difference {gap:.2e}")
        del grads, grads_halves
        names = ["one", "streams", "threads"]
        times = {n: [] for n in names}
        for r in range(args.rounds):
            for name in names[r % 3:] + names[:r % 3]:
                start, cpu = time.perf_counter(), cpu_seconds()
                getattr(ways, name)()
                wall = time.perf_counter() - start
                times[name].append(wall)
                print(f"round {r + 1} {name:8} {wall:6.2f} s  cpu {cpu_seconds() - cpu:6.2f} s", flush=True)
    for name in names:
        print(f"{name:8} median {statistics.median(times[name]):6.2f} s")


if __name__ == "__main__":
    main()
