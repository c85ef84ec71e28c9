"""Fine-tuning end to end on the tiny checkpoints: train (full, LoRA, QLoRA), export, speak (issue 64).

Datasets are written with `dataset.write` from codes our own generation sampled on the tiny Base checkpoint (each
clip with its own random speaker vector), so every number here follows from the checkpoint and the objective.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest
from mlx.utils import tree_flatten
from safetensors.numpy import load_file

import mlx_qwen3tts
from mlx_qwen3tts.finetune import dataset, export, objective, train
from mlx_qwen3tts.finetune.train import Options, check_memory, load_base
train_module = sys.modules["mlx_qwen3tts.finetune.train"]  # the module (the package's `train` is the function)
from fixture_checkpoints import checkpoint_dir
from finetuned import ONE, sampled_item

ROOT = Path(__file__).resolve().parent.parent
CLIPS = [("Hello there, world.", "english", 10), ("A second clip, somewhat longer.", "english", 14),
         ("Third.", "auto", 6)]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return checkpoint_dir("base-0b6", Path(tmp_path_factory.getbasetemp()))


@pytest.fixture(scope="module")
def tiny(base):
    return mlx_qwen3tts.load(str(base), dtype=mx.float32)


@pytest.fixture(scope="module")
def clips(tiny, tmp_path_factory):
    items = [sampled_item(tiny, *clip, seed) for seed, clip in enumerate(CLIPS)]
    return dataset.write(tmp_path_factory.mktemp("data") / "clips", items, {"model": "base-0b6"})


@pytest.fixture(scope="module")
def one(tiny, tmp_path_factory):
    return dataset.write(tmp_path_factory.mktemp("data") / "one", [sampled_item(tiny, *ONE, 7)], {})


def cli(*args, module="mlx_qwen3tts.finetune"):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=ROOT)


def test_first_step_logs_the_dataset_loss_at_the_base_weights(base, clips, tmp_path):
    """One batch holding the whole dataset, --grad-accum 1, --lr 0: step 1's losses are the dataset's at the base
    weights (scored here unpadded, by the objective), and the weights stay the base's."""
    run = tmp_path / "run"
    done = cli("train", "--model", base, "--data", clips, "--out", run, "--steps", 1, "--batch-size", 3,
               "--lr", 0, "--no-progress")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [line["step"] for line in lines] == [1] and set(lines[0]) == {"step", "loss", "talker_loss",
                                                                        "predictor_loss"}
    b = load_base(base, "full")
    examples = [objective.example(item, b.tokenizer, b.config) for item in dataset.load(clips).items]
    batch = objective.collate(examples, b.config.talker_config.codec_eos_token_id)
    want = [float(v) for v in objective.loss(b.model.talker, batch)]
    assert np.allclose([lines[0]["loss"], lines[0]["talker_loss"], lines[0]["predictor_loss"]], want, rtol=1e-5)
    trained = load_file(str(run / "weights.safetensors"))
    original = {f"talker.{k}": v for k, v in tree_flatten(b.model.talker.trainable_parameters())}
    assert trained.keys() == original.keys()
    assert all(np.array_equal(trained[k], np.array(v)) for k, v in original.items())


def test_resumed_run_equals_one_run(base, clips, tmp_path):
    """A run stopped after a step and resumed logs and ends as one run of the same steps (grad accumulation,
    a held-out clip and the checkpoint each epoch included)."""
    opts = dict(method="lora", lr=1e-3, batch_size=1, grad_accum=2, schedule="constant", warmup=0, val_share=0.34,
                progress=False)
    train(base, clips, tmp_path / "whole", steps=3, **opts)
    train(base, clips, tmp_path / "parts", steps=1, **opts)
    train(base, clips, tmp_path / "parts", steps=3, **opts)
    read = lambda run, name: (run / name).read_text().splitlines()  # noqa: E731
    assert read(tmp_path / "whole", "log.jsonl") == read(tmp_path / "parts", "log.jsonl")
    assert len(read(tmp_path / "whole", "log.jsonl")) == 3
    whole, parts = (load_file(str(tmp_path / r / "weights.safetensors")) for r in ("whole", "parts"))
    assert whole.keys() == parts.keys() and all(np.array_equal(whole[k], parts[k]) for k in whole)
    assert json.loads(read(tmp_path / "whole", "val.jsonl")[-1])["step"] == 3
    assert json.loads((tmp_path / "whole" / "run.json").read_text())["clips"] == {"train": 2, "validation": 1}


@pytest.mark.parametrize("args, says", [
    (["--data", "{missing}"], "not a prepared dataset"),
    (["--steps", "2", "--epochs", "1"], "--steps or --epochs"),
    (["--lr", "-1"], "--lr must be"),
    (["--batch-size", "0"], "--batch-size must be"),
    (["--val-share", "1"], "--val-share"),
    (["--method", "half"], "half"),
])
def test_bad_training_input_is_one_line_and_writes_nothing(base, clips, tmp_path, args, says):
    given = {"--model": base, "--data": clips, "--out": tmp_path / "run"}
    args = [a.format(missing=tmp_path / "nothing") for a in args]
    for flag in args[::2]:
        given.pop(flag, None)
    done = cli("train", *[x for pair in given.items() for x in pair], *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and says in lines[0], done.stderr
    assert not (tmp_path / "run").exists()


def test_memory_is_refused_up_front(base, clips):
    b = load_base(base, "full")
    examples = [objective.example(item, b.tokenizer, b.config) for item in dataset.load(clips).items]
    with pytest.raises(ValueError, match=r"^training needs about .* use method lora or qlora") as e:
        check_memory(b.model.talker, examples, Options(), available=1 << 20)
    assert "\n" not in str(e.value)
    check_memory(b.model.talker, examples, Options(), available=1 << 40)


def test_bad_export_input_is_one_line_and_writes_nothing(tmp_path, clips, base):
    done = cli("export", tmp_path / "no-run", "--speaker", "alice", "--out", tmp_path / "ckpt")
    assert done.returncode == 2 and done.stderr.startswith("error:") and len(done.stderr.splitlines()) == 1
    run = train(base, clips, tmp_path / "run", method="lora", steps=1, progress=False)
    done = cli("export", run, "--speaker", "two words", "--out", tmp_path / "ckpt")
    assert done.returncode == 2 and "speaker name" in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "ckpt").exists() and not list(tmp_path.glob(".ckpt*"))
    mine = tmp_path / "mine"  # a folder of the user's is never replaced
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    done = cli("export", run, "--speaker", "alice", "--out", mine)
    assert done.returncode == 2 and "--out" in done.stderr and len(done.stderr.splitlines()) == 1
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and not list(tmp_path.glob(".mine*"))


@pytest.mark.parametrize("method, merge", [("full", False), ("lora", False), ("qlora", True)])
def test_it_learns_one_utterance(base, one, tmp_path, method, merge):
    """Trained on one utterance until its loss is small, the exported speaker speaks it back exactly: greedy
    generation with `--speaker alice` gives the utterance's codes and ends there."""
    run = train(base, one, tmp_path / "run", method=method, steps=40, lr=1e-3, batch_size=1, progress=False)
    last = json.loads((run / "log.jsonl").read_text().splitlines()[-1])
    assert last["step"] == 40 and last["loss"] < 0.01
    args = [run, "--speaker", "Alice", "--out", tmp_path / "ckpt"] + (["--merge"] if merge else [])
    done = cli("export", *args)
    assert done.returncode == 0, done.stderr
    ckpt = tmp_path / "ckpt"
    config = json.loads((ckpt / "config.json").read_text())
    assert config["tts_model_type"] == "custom_voice" and config["talker_config"]["spk_id"] == {"alice": 3000}
    weights, released = mx.load(str(ckpt / "model.safetensors")), mx.load(str(base / "model.safetensors"))
    encoder = [k for k in released if k.startswith("speaker_encoder.")]
    assert encoder and all(mx.array_equal(weights[k], released[k]) for k in encoder)  # kept, as released
    item = dataset.load(one).items[0]
    table = weights["talker.model.codec_embedding.weight"]  # in the checkpoint's stored dtype
    assert mx.array_equal(table[3000], mx.array(item.speaker_vector).astype(table.dtype))
    assert (ckpt / "adapters.safetensors").exists() == (method != "full" and not merge)

    codes = tmp_path / "codes.npy"
    spoken = cli("--model", ckpt, "--text", item.text, "--speaker", "alice", "--language", item.language,
                 "--temperature", "0", "--codes-output", codes, module="mlx_qwen3tts.cli.generate")
    assert spoken.returncode == 0, spoken.stderr
    assert np.array_equal(np.load(codes), item.codes)


def _talker_and_batch(base, clips, method):
    """The talker of `base` shaped for `method` and the batch of the `clips` dataset."""
    b = load_base(base, method)
    examples = [objective.example(item, b.tokenizer, b.config) for item in dataset.load(clips).items]
    return b.model.talker, objective.collate(examples, b.config.talker_config.codec_eos_token_id)


def _loss_and_grads(talker, batch):
    """(loss, {name: gradient}) of the batch at the talker's weights."""
    import mlx.nn as nn

    loss, grads = nn.value_and_grad(talker, lambda: objective.loss(talker, batch)[0])()
    mx.eval(loss, grads)
    return loss, dict(tree_flatten(grads))


def _swapped(talker, layers, make):
    """Each (path, layer) of `layers` replaced in `talker` by `make(layer)`, holding the same parameters."""
    from mlx.utils import tree_unflatten

    swapped = []
    for path, m in layers:
        layer = make(m)
        layer.update(m.parameters())
        swapped.append((path, layer))
    talker.update_modules(tree_unflatten(swapped))


def test_qlora_on_the_cpu_computes_dense_with_the_quantized_layers_gradients(base, clips):
    """On the CPU, where MLX's quantized matmul is a plain loop (a QLoRA step on the 0.6B shapes did not end in
    5 minutes), QLoRA's 4-bit layers multiply by their weight dequantized: the loss and every LoRA gradient equal
    those of the same layers as `nn.QuantizedLinear` (MLX's quantized matmul), to float32 rounding."""
    import mlx.nn as nn

    talker, batch = _talker_and_batch(base, clips, "qlora")
    layers = [(path, m) for path, m in talker.named_modules() if isinstance(m, nn.QuantizedLinear)]
    assert layers and all(type(m) is train_module.DequantizedLinear for _, m in layers)
    dense_loss, dense_flat = _loss_and_grads(talker, batch)
    _swapped(talker, layers, lambda m: nn.QuantizedLinear(m.weight.shape[1] * 32 // m.bits, m.weight.shape[0],
                                                          "bias" in m, m.group_size, m.bits))
    loss, flat = _loss_and_grads(talker, batch)
    assert abs(dense_loss.item() - loss.item()) <= 1e-5 * abs(loss.item())
    assert flat.keys() == dense_flat.keys() and all("lora_" in k for k in flat)
    for k, g in flat.items():
        assert mx.allclose(dense_flat[k], g, rtol=1e-4, atol=1e-6).item(), k


def test_custom_voice_checkpoint_keeping_the_speaker_encoder_loads(base, tmp_path):
    """A CustomVoice checkpoint with `speaker_encoder.*` (as export writes it) loads, its encoder with it
    (refused as "unexpected speaker_encoder" before), and its presets still speak."""
    import shutil

    from mlx_qwen3tts.model.checkpoint import safetensors_info

    custom = checkpoint_dir("custom_voice-0b6", base.parent.parent)
    folder = tmp_path / "custom"
    shutil.copytree(custom, folder)
    weights = mx.load(str(folder / "model.safetensors"))
    encoder = {k: v for k, v in mx.load(str(base / "model.safetensors")).items() if k.startswith("speaker_encoder.")}
    assert encoder and not any(k.startswith("speaker_encoder.") for k in weights)
    metadata = safetensors_info(folder / "model.safetensors")[0]
    mx.save_safetensors(str(folder / "model.safetensors"), {**weights, **encoder}, metadata=metadata)
    tts = mlx_qwen3tts.load(str(folder), dtype=mx.float32)
    assert "speaker_encoder" in tts.model
    speaker = tts.facts.speakers[0]
    kept = tts.generate("Hello.", speaker=speaker, temperature=0, max_tokens=4, decode=False)
    plain = mlx_qwen3tts.load(str(custom), dtype=mx.float32).generate("Hello.", speaker=speaker, temperature=0,
                                                                       max_tokens=4, decode=False)
    assert np.array_equal(np.array(kept.codes), np.array(plain.codes))


def test_several_speakers_from_a_custom_voice_checkpoint(tiny, tmp_path):
    """A CustomVoice checkpoint fine-tunes too; each speaker of the dataset gets its own name and a free row
    beside the presets, and all of them speak."""
    custom = checkpoint_dir("custom_voice-0b6", tmp_path)
    items = [sampled_item(tiny, *clip, seed) for seed, clip in enumerate(CLIPS)]
    items[0].speaker = items[2].speaker = "first"
    items[1].speaker = "second"
    data = dataset.write(tmp_path / "two", items, {})
    run = train(custom, data, tmp_path / "run", method="lora", steps=1, progress=False)
    presets = json.loads((custom / "config.json").read_text())["talker_config"]["spk_id"]
    with pytest.raises(ValueError, match="name each as SPEAKER=NAME"):
        export(run, "alice", tmp_path / "ckpt")
    ckpt = export(run, ["first=Alice", "second=bob"], tmp_path / "ckpt", merge=True)
    spk_id = json.loads((ckpt / "config.json").read_text())["talker_config"]["spk_id"]
    assert {k: spk_id[k] for k in presets} == presets
    new = [spk_id["alice"], spk_id["bob"]]
    assert len(set(new)) == 2 and not set(new) & set(presets.values()) and min(new) >= 3000
    table = mx.load(str(ckpt / "model.safetensors"))["talker.model.codec_embedding.weight"]
    first = np.mean([items[0].speaker_vector, items[2].speaker_vector], axis=0)
    assert mx.array_equal(table[spk_id["alice"]], mx.array(first).astype(table.dtype))
    tts = mlx_qwen3tts.load(str(ckpt), dtype=mx.float32)
    for name in ("alice", "bob", sorted(presets)[0]):
        assert tts.generate("Hi.", speaker=name, temperature=0, max_tokens=3, decode=False).codes.shape[-1] == 16


def test_ctrl_c_saves_and_the_same_command_resumes(base, clips, tmp_path):
    """SIGINT stops the run after its step with a checkpoint (exit 130); the same command goes on from there and
    logs every step once."""
    import signal
    import time

    run = tmp_path / "run"
    args = ["train", "--model", base, "--data", clips, "--out", run, "--steps", 40, "--batch-size", 1,
            "--method", "lora", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "mlx_qwen3tts.finetune", *map(str, args)], env=env, cwd=ROOT,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not ((run / "log.jsonl").exists() and (run / "log.jsonl").read_text().count("\n") >= 2):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=300) == 130
    finally:
        process.kill()
    saved = json.loads((run / "state.json").read_text())["step"]
    assert 2 <= saved < 40
    assert len((run / "log.jsonl").read_text().splitlines()) == saved
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    steps = [json.loads(line)["step"] for line in (run / "log.jsonl").read_text().splitlines()]
    assert steps == list(range(1, 41))


def test_full_fine_tuning_gives_each_weight_gradient_in_the_weights_layout(base, clips):
    """Full fine-tuning's linear layers (`RowGradientLinear`) give every weight gradient row-major, as the weight
    is stored (MLX's own gradient of x @ W.T is a column-major view, which the fused AdamW update reads across
    rows), with the loss and gradients of plain `nn.Linear` layers to float32 rounding."""
    import mlx.nn as nn

    talker, batch = _talker_and_batch(base, clips, "full")
    layers = [(path, m) for path, m in talker.named_modules() if isinstance(m, nn.Linear)]
    assert layers and all(type(m) is train_module.RowGradientLinear for _, m in layers)
    loss, grads = _loss_and_grads(talker, batch)
    _swapped(talker, layers, lambda m: nn.Linear(m.weight.shape[1], m.weight.shape[0], "bias" in m))
    plain_loss, plain_grads = _loss_and_grads(talker, batch)
    assert abs(plain_loss.item() - loss.item()) <= 1e-6 * abs(loss.item())
    assert grads.keys() == plain_grads.keys()
    for path, _ in layers:
        g, expected = grads[f"{path}.weight"], plain_grads[f"{path}.weight"]
        assert np.array(g, copy=False).flags.c_contiguous, path
        assert not np.array(expected, copy=False).flags.c_contiguous, path  # what the layer is there for
        assert mx.allclose(g, expected, rtol=1e-5, atol=1e-7).item(), path
    for k in grads.keys() - {f"{path}.weight" for path, _ in layers}:
        assert mx.allclose(grads[k], plain_grads[k], rtol=1e-5, atol=1e-7).item(), k


@pytest.mark.parametrize("bits, group_size", [(2, 32), (4, 64), (4, 128), (8, 64), (3, 64), (6, 64)])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_the_cpu_dequantize_gives_mx_dequantizes_numbers(bits, group_size, dtype):
    """The CPU path's unpacking (`_unpacked`, plain elementwise ops) is `mx.dequantize` to the bit, for every
    width (3 and 6 go to `mx.dequantize` itself) and both scale types."""
    w = mx.random.normal((96, 256), key=mx.random.key(bits * group_size)).astype(getattr(mx, dtype))
    q, scales, biases = mx.quantize(w, group_size, bits)
    expected = mx.dequantize(q, scales, biases, group_size, bits)
    found = train_module._unpacked(q, scales, biases, group_size, bits)
    assert found.dtype == expected.dtype and mx.array_equal(found, expected).item()
