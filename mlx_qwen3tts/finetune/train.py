"""Training the talker and the code predictor on a prepared dataset (objective.py), in full or with LoRA.

A run folder holds what resumes it and what `export` reads:
    RUN/run.json                  the settings (base model, dataset, method, LoRA shape, hyper-parameters)
    RUN/weights.safetensors       the trained parameters ("talker.*": all of them in full fine-tuning, the
                                  LoRA matrices otherwise), as of the last checkpoint
    RUN/optimizer.safetensors     AdamW's state then;  RUN/state.json  {"step": n} then
    RUN/log.jsonl                 one line an optimizer step: its batch's losses before its update
    RUN/val.jsonl                 the held-out share's losses after each epoch (when there is one)
    RUN/speakers.safetensors      each speaker's mean vector over its clips in the dataset (what export writes)
A checkpoint is written after each epoch, at the end and on Ctrl-C; giving the same `out` again resumes from it.
The text embedding stays frozen (its rows of unseen tokens would only decay); the speaker encoder is not trained.
"""

import contextlib
import functools
import json
import math
import os
import shutil
import signal
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

import mlx.core as mx
import mlx.nn as nn
import mlx.optimizers as optim
import numpy as np
from mlx.utils import tree_flatten, tree_map, tree_unflatten

from ..backend import cpu_paths
from ..model.adapters import add_lora_layers
from ..errors import InputError
from . import dataset as datasets
from . import objective

METHODS = ("full", "lora", "qlora")
DTYPES = ("float32", "bfloat16")
LORA_KEYS = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
             "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj")
MIN_CLIPS_FOR_VALIDATION = 20
DEFAULT_VAL_SHARE = 0.05
PAD_TO = 16


@dataclass
class Options:
    method: str = "full"
    steps: Optional[int] = None
    epochs: Optional[int] = None  # 3 when neither steps nor epochs is given (upstream's default)
    lr: Optional[float] = None  # 2e-5 full (upstream's), 1e-4 LoRA
    batch_size: int = 2
    grad_accum: int = 1
    seed: int = 0
    val_share: Optional[float] = None  # 0.05 from datasets of 20 clips or more, else none
    dtype: str = "float32"  # full fine-tuning's weights
    predictor_weight: float = objective.PREDICTOR_WEIGHT
    warmup: Optional[int] = None  # steps; default a twentieth of them, at most 100
    schedule: str = "cosine"  # or "constant" (after the warm-up)
    clip: float = 1.0  # gradient norm clipping (0: none)
    weight_decay: float = 0.01
    lora_rank: int = 8
    lora_scale: float = 20.0
    compile: bool = True
    progress: bool = True

    def check(self):
        """InputError (a ValueError) with one line for a setting that cannot run; `{field}` names the setting."""
        whole = {"batch_size": (self.batch_size, 1), "grad_accum": (self.grad_accum, 1),
                 "lora_rank": (self.lora_rank, 1), "steps": (self.steps, 1), "epochs": (self.epochs, 1),
                 "warmup": (self.warmup, 0)}
        for name, (value, least) in whole.items():
            if value is not None and (not isinstance(value, int) or value < least):
                raise _bad(name, f"a whole number >= {least}", value)
        for name, allowed in (("method", METHODS), ("dtype", DTYPES), ("schedule", ("cosine", "constant"))):
            if getattr(self, name) not in allowed:
                raise _bad(name, f"one of {', '.join(allowed)}", getattr(self, name))
        if self.steps is not None and self.epochs is not None:
            raise InputError("give {steps} or {epochs}, not both", field="steps", others=("epochs",))
        if self.lr is not None and not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and self.lr >= 0):
            raise _bad("lr", "a number >= 0", self.lr)
        if self.val_share is not None and not (0 <= self.val_share < 1):
            raise _bad("val_share", "in [0, 1)", self.val_share)


def _bad(field: str, what: str, value) -> InputError:
    return InputError(f"{{{field}}} must be {what}, got {value!r}", field=field)


def train(model, data, out, **options) -> Path:
    """Fine-tune checkpoint folder `model` on the prepared dataset `data` into the run folder `out` (resumed
    when it holds a run of the same settings). Options: see `Options`. Returns `out`.
    ValueError (one line) for bad input, before anything is written."""
    opts = Options(**options)
    opts.check()
    out = Path(out)
    settings = _settings(model, data, opts)
    resumed = _resumable(out, settings)
    data = datasets.load(data)
    check_speaker_size(data, model)
    mx.random.seed(opts.seed)  # LoRA's initial matrices are drawn
    base = load_base(model, opts.method, opts.dtype, opts.lora_rank, opts.lora_scale)
    examples = [objective.example(item, base.tokenizer, base.config) for item in data.items]
    train_set, val_set = _split(examples, opts)
    plan = Plan.of(len(train_set), opts)
    check_memory(base.model.talker, train_set, opts)
    out.mkdir(parents=True, exist_ok=True)
    speakers = {name: mx.array(data.mean_speaker(name)) for name in sorted({i.speaker for i in data.items})}
    try:
        _save_atomic(out / "speakers.safetensors", speakers)  # export's speaker vectors: the dataset's means
        with buffers_kept():
            Trainer(base, (train_set, val_set), plan, opts, out, settings, resumed).run()
    except BaseException:
        if not (out / "state.json").exists() and not resumed:  # nothing worth resuming: leave nothing
            shutil.rmtree(out, ignore_errors=True)
        raise
    return out


@contextlib.contextmanager
def buffers_kept():
    """MLX's buffer cache as large as its memory limit while training, as it is on Metal by default: on the CPU
    it keeps 32 MB, so each step's gigabytes of activations, gradients and AdamW's new state came back from the
    system as fresh pages the kernel zeroes (`python -m benchmarks.adamw_layout`: an update of 63 M parameters
    0.43 s with MLX's cache against 0.25 s with the buffers kept). The processes' resident memory grows by what
    the cache holds (full fine-tuning of 0.6B: 16.6 GB against 12.4 GB, docs/benchmarks.md). Restored after."""
    previous = mx.set_cache_limit(mx.get_memory_limit())
    try:
        yield
    finally:
        mx.set_cache_limit(previous)
        mx.clear_cache()


def check_speaker_size(data: datasets.Dataset, model):
    """InputError (one line) when the dataset's speaker vectors are not as wide as `model`'s talker: a dataset is
    made by a Base model's speaker encoder and trains the models of that size only."""
    from ..model import checkpoint

    config = checkpoint.load_config(checkpoint.resolve(str(model)))
    width, made = data.items[0].speaker_vector.shape[0], data.meta.get("model") or "its Base model"
    if width != config.talker_config.hidden_size:
        raise InputError(f"{{data}} holds speaker vectors of {width} values (made with {made}) and {model} "
                         f"({config.tts_model_size}) takes {config.talker_config.hidden_size}: prepare the dataset "
                         "with the Base model of this size", field="data")


@dataclass
class Base:
    model: nn.Module  # Qwen3TTSModel
    config: object
    tokenizer: object
    folder: Path


def load_base(path, method: str, dtype: str = "float32", rank: int = 8, scale: float = 20.0) -> Base:
    """The checkpoint at `path` shaped for `method`: unfused, trainable parameters unfrozen (full: the talker but
    its text embedding; LoRA: LoRA matrices on every attention and MLP projection, over 4-bit weights for qlora)."""
    from ..model import checkpoint, layouts
    from ..tokenizer import TextTokenizer

    folder = checkpoint.resolve(str(path))
    config = checkpoint.load_config(folder)
    if method == "full" and config.quantization:
        raise InputError(f"{folder} is quantized: full fine-tuning needs its bfloat16 or float32 checkpoint; "
                         "use {method} lora (QLoRA on these weights)", field="method")
    weights_dtype = mx.bfloat16 if dtype == "bfloat16" else mx.float32
    model = layouts.load_model(folder, config, weights_dtype, prefix="talker.", fuse=False)
    shape_for(model, method, rank, scale)
    mx.eval(model.parameters())  # now: QLoRA's float32 originals are freed before the first step, not in it
    return Base(model, config, TextTokenizer.from_folder(folder), folder)


def shape_for(model, method: str, rank: int = 8, scale: float = 20.0):
    """`model` (a Qwen3TTSModel) frozen but for what `method` trains (see `load_base`)."""
    talker = model.talker
    model.freeze()
    if method == "full":
        talker.unfreeze()
        talker.model.text_embedding.freeze()
        row_major_gradients(talker)
        return
    if method == "qlora" and not model.config.quantization:
        nn.quantize(talker, 64, 4, class_predicate=_quantizable)
    if cpu_paths():
        dequantize_for_cpu(talker)
    add_lora_layers(talker, {"rank": rank, "scale": scale, "dropout": 0.0, "keys": list(LORA_KEYS)})


class RowGradientLinear(nn.Linear):
    """A linear layer whose weight gradient comes out in the weight's own row-major layout. MLX's gradient of
    x @ W.T is the transpose of x.T @ dy, a column-major view, which the fused AdamW update reads across rows
    (`python -m benchmarks.adamw_layout`: an update of 63 M parameters 0.25 s row-major against 0.39 s
    column-major, with the buffers training keeps; docs/benchmarks.md). Same forward, same numbers."""

    @classmethod
    def of(cls, layer: nn.Linear) -> "RowGradientLinear":
        out_dims, in_dims = layer.weight.shape
        new = cls(in_dims, out_dims, "bias" in layer)
        new.update(layer.parameters())
        return new

    def __call__(self, x):
        x = _row_gradient_matmul(x, self["weight"])
        return x + self["bias"] if "bias" in self else x


@mx.custom_function
def _row_gradient_matmul(x, w):
    return x @ w.T


@_row_gradient_matmul.vjp
def _row_gradient_matmul_vjp(primals, cotangent, _):
    x, w = primals
    flat = cotangent.reshape(-1, cotangent.shape[-1])
    return cotangent @ w, flat.T @ x.reshape(-1, x.shape[-1])


def row_major_gradients(model: nn.Module):
    """Each plain linear layer of `model` made a `RowGradientLinear` (same parameters, same trainability)."""
    _swap_layers(model, lambda m: type(m) is nn.Linear, RowGradientLinear.of)


def _swap_layers(model: nn.Module, wanted, make):
    """Each module m of `model` with `wanted(m)` replaced by `make(m)`."""
    swapped = [(path, make(m)) for path, m in model.named_modules() if wanted(m)]
    if swapped:
        model.update_modules(tree_unflatten(swapped), strict=False)


class DequantizedLinear(nn.QuantizedLinear):
    """A 4-bit linear layer that multiplies by its weight dequantized to float32, for the CPU: there MLX's
    quantized matmul is a plain loop (a 320 x 1024 by 1024 x 3072 product takes 1.6 s against 0.04 s
    dequantized, measured with MLX 0.32.4), and a QLoRA step on the 0.6B shapes did not end in 5 minutes.
    The dense weight is made again in the backward pass rather than kept, so the step's memory stays QLoRA's."""

    @classmethod
    def of(cls, layer: nn.QuantizedLinear) -> "DequantizedLinear":
        out_dims, in_dims = layer.weight.shape[0], layer.weight.shape[1] * 32 // layer.bits
        new = cls(in_dims, out_dims, "bias" in layer, layer.group_size, layer.bits)
        new.update(layer.parameters())
        return new

    def __call__(self, x):
        x = _dequantized_matmul(self.group_size, self.bits)(x, self["weight"], self["scales"], self["biases"])
        return x + self["bias"] if "bias" in self else x


@functools.lru_cache(maxsize=None)
def _dequantized_matmul(group_size: int, bits: int):
    """x @ W.T of an affine-quantized W, with a backward pass that dequantizes W again (nothing dense kept)."""

    def dense(w, scales, biases):
        return _unpacked(w, scales, biases, group_size, bits)

    @mx.custom_function
    def matmul(x, w, scales, biases):
        return x @ dense(w, scales, biases).T

    @matmul.vjp
    def matmul_vjp(primals, cotangent, _):
        x, w, scales, biases = primals
        return cotangent @ dense(w, scales, biases), mx.zeros_like(w), mx.zeros_like(scales), mx.zeros_like(biases)

    return matmul


def _unpacked(w, scales, biases, group_size: int, bits: int):
    """`mx.dequantize` of an affine-quantized W as plain elementwise ops: the same numbers in less time on the CPU
    (`python -m benchmarks.dequantize`, docs/benchmarks.md); widths that do not divide 32 go to `mx.dequantize`.
    The words are viewed a group at a time, so that the unpacking and the scaling are one broadcast expression
    (one fused pass when compiled, as in the training step) and the result is a free reshape of it."""
    if 32 % bits:
        return mx.dequantize(w, scales, biases, group_size, bits)
    per_word = 32 // bits
    shifts = mx.arange(0, 32, bits, dtype=mx.uint32)
    words = w.reshape(w.shape[0], -1, group_size // per_word)  # (rows, groups, words a group)
    q = ((words[..., None] >> shifts) & ((1 << bits) - 1)).astype(scales.dtype)
    return (q * scales[..., None, None] + biases[..., None, None]).reshape(w.shape[0], -1)


def dequantize_for_cpu(model: nn.Module):
    """Each affine-quantized linear layer of `model` made a `DequantizedLinear` (same parameters)."""
    _swap_layers(model, lambda m: type(m) is nn.QuantizedLinear and m.mode == "affine" and "biases" in m,
                 DequantizedLinear.of)


def _quantizable(path: str, module) -> bool:
    return (isinstance(module, nn.Linear) and ".layers." in f".{path}" and module.weight.shape[1] % 64 == 0)


def _settings(model, data, opts: Options) -> dict:
    kept = {k: v for k, v in asdict(opts).items() if k not in ("progress", "compile", "steps", "epochs")}
    return {"model": str(Path(model).resolve()) if Path(model).exists() else str(model),
            "data": str(Path(data).resolve()), **kept}


def _resumable(out: Path, settings: dict) -> bool:
    """Whether `out` holds a run to resume; ValueError when it holds something else."""
    if not out.exists():
        return False
    if not out.is_dir():
        raise ValueError(f"{out} is a file; give a folder for the run")
    if not (out / "run.json").exists():
        if any(out.iterdir()):
            raise InputError(f"{out} is not empty and holds no run; give a new folder for {{out}}", field="out")
        return False
    saved = json.loads((out / "run.json").read_text(encoding="utf-8"))["settings"]
    differs = sorted(k for k in settings if saved.get(k) != settings[k])
    if differs:
        raise InputError(f"{out} holds a run with other settings ({', '.join(differs)}); give a new folder for {{out}}",
                         field="out")
    return (out / "state.json").exists()


def _split(examples: list, opts: Options):
    """(train, validation): a share held out (seeded) from 20 clips up, or as --val-share asks."""
    share = opts.val_share
    if share is None:
        share = DEFAULT_VAL_SHARE if len(examples) >= MIN_CLIPS_FOR_VALIDATION else 0.0
    held = int(round(share * len(examples)))
    if held and held >= len(examples):
        raise InputError(f"{{val_share}} {share} holds out every clip of {len(examples)}; give a smaller share",
                         field="val_share")
    order = np.random.default_rng(opts.seed).permutation(len(examples))
    val = set(order[:held].tolist())
    return [e for i, e in enumerate(examples) if i not in val], [e for i, e in enumerate(examples) if i in val]


@dataclass
class Plan:
    """Which micro-batches each optimizer step takes: epochs of the seeded shuffles, `grad_accum` each step."""

    clips: int
    batches: int  # micro-batches an epoch
    steps: int  # optimizer steps in all
    opts: Options

    @classmethod
    def of(cls, clips: int, opts: Options) -> "Plan":
        batches = math.ceil(clips / opts.batch_size)
        steps = opts.steps or (opts.epochs or 3) * math.ceil(batches / opts.grad_accum)
        return cls(clips, batches, steps, opts)

    def micro_batches(self, step: int) -> list:
        """The clip indices of each micro-batch of optimizer step `step` (from 1)."""
        out = []
        for i in range((step - 1) * self.opts.grad_accum, step * self.opts.grad_accum):
            epoch, b = divmod(i, self.batches)
            order = np.random.default_rng([self.opts.seed, epoch]).permutation(self.clips)
            out.append(order[b * self.opts.batch_size:(b + 1) * self.opts.batch_size].tolist())
        return out

    def epoch_ends(self, step: int) -> bool:
        """Whether optimizer step `step` takes an epoch's last micro-batch."""
        accum = self.opts.grad_accum
        return (step * accum) // self.batches > ((step - 1) * accum) // self.batches

    def schedule(self):
        lr = self.opts.lr if self.opts.lr is not None else (2e-5 if self.opts.method == "full" else 1e-4)
        warmup = self.opts.warmup if self.opts.warmup is not None else min(100, self.steps // 20)
        rest = max(1, self.steps - warmup)
        after = optim.cosine_decay(lr, rest) if self.opts.schedule == "cosine" else (lambda _: mx.array(lr))
        if not warmup:
            return after
        return optim.join_schedules([optim.linear_schedule(lr / warmup, lr, warmup), after], [warmup])


def check_memory(talker, examples: list, opts: Options, available: Optional[int] = None):
    """ValueError with one line when the estimate of `estimate_memory` exceeds 90% of the machine's memory."""
    need = estimate_memory(talker, examples, opts)
    have = available or total_memory()
    if have and need["total"] > 0.9 * have:
        gb = lambda n: f"{n / 2**30:.1f} GB"  # noqa: E731
        raise InputError(f"training needs about {gb(need['total'])} (weights {gb(need['weights'])}, optimizer "
                         f"{gb(need['optimizer'])}, activations {gb(need['activations'])}) and this machine has "
                         f"{gb(have)}: use {{method}} lora or qlora, a smaller {{batch_size}}, or shorter clips",
                         field="method", others=("batch_size",))


def estimate_memory(talker, examples: list, opts: Options) -> dict:
    """Bytes: the weights, gradients + AdamW's two moments + the accumulated gradient, and the activations kept
    for the backward pass of the largest micro-batch (per layer ~ 34 values a position and width, and the
    attention scores), in float32."""
    weights = sum(v.nbytes for _, v in tree_flatten(talker.parameters()))
    trainable = sum(v.nbytes for _, v in tree_flatten(talker.trainable_parameters()))
    longest = sorted((e.length for e in examples), reverse=True)[:opts.batch_size]
    frames = sum(sorted((e.codes.shape[0] for e in examples), reverse=True)[:opts.batch_size])
    tc = talker.model
    args = tc.layers[0].self_attn
    H = talker.codec_head.weight.shape[1]
    tokens = len(longest) * max(longest)
    per_layer = tokens * 34 * H * 4 + len(longest) * args.n_heads * max(longest) ** 2 * 4 * 2
    cp_layers, cp_vocab = len(talker.code_predictor.model.layers), talker.code_predictor.lm_head[0].weight.shape[0]
    cp = frames * 16 * 34 * H * 4 * cp_layers + frames * 15 * cp_vocab * 4 * 3
    activations = per_layer * len(tc.layers) + cp + tokens * talker.codec_head.weight.shape[0] * 4 * 3
    optimizer = 4 * trainable
    return {"weights": weights, "optimizer": optimizer, "activations": activations,
            "total": weights + optimizer + activations}


def total_memory() -> int:
    """Bytes of memory training may use: the GPU's working set on a Mac, else the machine's RAM."""
    info = mx.device_info() if hasattr(mx, "device_info") else {}
    if "max_recommended_working_set_size" in info:
        return int(info["max_recommended_working_set_size"])
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def adamw(learning_rate, weight_decay: float = 0.01):
    """AdamW as torch's (and the official script's): bias-corrected moments, decoupled weight decay."""
    return optim.AdamW(learning_rate, weight_decay=weight_decay, bias_correction=True)


class Trainer:
    """The loop: micro-batches of the plan, gradients averaged over `grad_accum`, clipped, one AdamW update;
    a log line a step, a checkpoint each epoch, at the end and on Ctrl-C."""

    def __init__(self, base: Base, sets: tuple, plan: Plan, opts: Options, out: Path, settings: dict,
                 resumed: bool = False):
        """`sets`: (the training items, the validation items)."""
        self.base, self.talker = base, base.model.talker
        self.train_set, self.val_set = sets
        self.plan, self.opts, self.out, self.settings = plan, opts, out, settings
        self.eos = base.config.talker_config.codec_eos_token_id
        self.optimizer = adamw(plan.schedule(), opts.weight_decay)
        self.step = 0
        if resumed:
            self.restore()
        else:
            self.optimizer.init(self.talker.trainable_parameters())
        self.grads, self.update = self._grad_fn(), self._update_fn()

    def _grad_fn(self):
        talker, weight = self.talker, self.opts.predictor_weight

        def loss(*arrays):
            return objective.loss(talker, objective.Batch(*arrays), weight)

        fn = nn.value_and_grad(talker, loss)
        if not self.opts.compile:
            return fn
        state = [talker.state, mx.random.state]
        return mx.compile(fn, inputs=state, outputs=state)

    def _update_fn(self):
        """Clipping and AdamW as one compiled function: one fused pass over each parameter, where the two
        apart take a dozen (on the 0.6B shapes' CPU step: 7.9 s of AdamW and 0.9 s of clipping, measured)."""
        talker, optimizer, clip = self.talker, self.optimizer, self.opts.clip

        def update(grads):
            if clip:
                grads, _ = optim.clip_grad_norm(grads, clip)
            optimizer.update(talker, grads)

        if not self.opts.compile:
            return update
        state = [talker.state, optimizer.state]
        return mx.compile(update, inputs=state, outputs=state)

    def batch(self, indices, examples=None):
        return objective.collate([(examples or self.train_set)[i] for i in indices], self.eos, pad_to=PAD_TO)

    def run(self):
        self.write_settings()
        progress = TrainingProgress(self.plan.steps, self.step, self.opts.progress)
        with StopAtStep() as stop:
            while self.step < self.plan.steps:
                losses, tokens = self.one_step()
                self.log(losses)
                progress.update(self.step, losses, tokens)
                if self.plan.epoch_ends(self.step) or self.step == self.plan.steps or stop.asked:
                    self.validate()
                    self.save()
                if stop.asked:
                    progress.close(f"stopped at step {self.step}: run the same command again to resume")
                    raise KeyboardInterrupt
        progress.close(f"done: {self.step} steps in {self.out}; export the run to speak with its voice")

    def one_step(self):
        """One optimizer step: ((loss, talker, predictor) of its batch before the update, its positions)."""
        parts = self.plan.micro_batches(self.step + 1)
        total, sums, tokens = None, np.zeros(3), 0
        for indices in parts:
            batch = self.batch(indices)
            (loss, talker_ce, predictor_ce), grads = self.grads(*batch)
            total = grads if total is None else tree_map(mx.add, total, grads)
            mx.eval(total, loss, talker_ce, predictor_ce)
            sums += [loss.item(), talker_ce.item(), predictor_ce.item()]
            tokens += int(batch.text_mask.sum().item())
        if len(parts) > 1:
            total = tree_map(lambda g: g / len(parts), total)
        self.update(total)
        mx.eval(self.talker.trainable_parameters(), self.optimizer.state)
        self.step += 1
        return sums / len(parts), tokens

    def log(self, losses):
        line = {"step": self.step, "loss": float(losses[0]), "talker_loss": float(losses[1]),
                "predictor_loss": float(losses[2])}
        with open(self.out / "log.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def validate(self):
        if not self.val_set:
            return
        sums, n = np.zeros(3), 0
        for start in range(0, len(self.val_set), self.opts.batch_size):
            indices = range(start, min(start + self.opts.batch_size, len(self.val_set)))
            values = objective.loss(self.talker, self.batch(indices, self.val_set), self.opts.predictor_weight)
            sums += [v.item() * len(indices) for v in values]
            n += len(indices)
        line = {"step": self.step, "val_loss": sums[0] / n, "val_talker_loss": sums[1] / n,
                "val_predictor_loss": sums[2] / n}
        with open(self.out / "val.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def write_settings(self):
        run = {"settings": self.settings, "steps": self.plan.steps, "clips": {"train": len(self.train_set),
                                                                              "validation": len(self.val_set)}}
        _write_atomic(self.out / "run.json", json.dumps(run, indent=1).encode())

    def save(self):
        """The trained parameters, the optimizer state and the step, each written whole before it replaces the
        last (state.json last: it names a step whose files are all in place)."""
        weights = {f"talker.{k}": v for k, v in tree_flatten(self.talker.trainable_parameters())}
        _save_atomic(self.out / "weights.safetensors", weights)
        _save_atomic(self.out / "optimizer.safetensors", dict(tree_flatten(self.optimizer.state)))
        _write_atomic(self.out / "state.json", json.dumps({"step": self.step}).encode())

    def restore(self):
        self.step = json.loads((self.out / "state.json").read_text())["step"]
        weights = mx.load(str(self.out / "weights.safetensors"))
        self.talker.load_weights([(k[len("talker."):], v) for k, v in weights.items()], strict=False)
        self.optimizer.init(self.talker.trainable_parameters())
        self.optimizer.state = tree_unflatten(list(mx.load(str(self.out / "optimizer.safetensors")).items()))
        log = self.out / "log.jsonl"
        if log.exists():  # steps after the checkpoint are done again
            lines = [ln for ln in log.read_text().splitlines() if ln and json.loads(ln)["step"] <= self.step]
            log.write_text("".join(ln + "\n" for ln in lines))


class StopAtStep:
    """Ctrl-C (SIGINT) asks the loop to stop after the step under way (it then saves), so a checkpoint never
    falls inside an update. Only in the main thread, where Python delivers signals."""

    def __init__(self):
        self.asked, self.previous = False, None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._ask)
        return self

    def _ask(self, *_):
        if self.asked:  # a second Ctrl-C: at once
            raise KeyboardInterrupt
        self.asked = True
        print("\nstopping after this step (Ctrl-C again: at once, losing it)", file=sys.stderr, flush=True)

    def __exit__(self, *_):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _write_atomic(path: Path, data: bytes):
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _save_atomic(path: Path, arrays: dict):
    tmp = path.with_name(f".{path.name}.tmp.safetensors")
    mx.save_safetensors(str(tmp), arrays)
    os.replace(tmp, path)


class TrainingProgress:
    """One line on stderr: step, losses, positions a second, peak memory, time left."""

    def __init__(self, steps: int, start: int, shown: bool):
        self.steps, self.start, self.shown = steps, start, shown
        self.began, self.tokens = time.perf_counter(), 0
        self.tty = sys.stderr.isatty()

    def update(self, step: int, losses, tokens: int):
        self.tokens += tokens
        if not self.shown:
            return
        elapsed = time.perf_counter() - self.began
        done = step - self.start
        left = elapsed / done * (self.steps - step) if done else 0.0
        line = (f"step {step}/{self.steps}  loss {losses[0]:.4f} (talker {losses[1]:.4f}, predictor "
                f"{losses[2]:.4f})  {self.tokens / max(elapsed, 1e-9):,.0f} tok/s  "
                f"{mx.get_peak_memory() / 2**30:.2f} GB  {_clock(left)} left")
        if self.tty:
            print("\r" + line, end="", file=sys.stderr, flush=True)
        elif step == self.steps or step % 10 == 0 or step == self.start + 1:
            print(line, file=sys.stderr, flush=True)

    def close(self, message: str):
        if self.shown:
            print(("\n" if self.tty else "") + message, file=sys.stderr, flush=True)


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def resume_options(out) -> dict:
    """The options a run folder was started with (for `export`)."""
    return json.loads((Path(out) / "run.json").read_text(encoding="utf-8"))["settings"]


__all__ = ["train", "Options", "load_base", "estimate_memory"]
