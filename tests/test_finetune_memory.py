"""docs/finetune.md's memory table and its batch-of-one totals are what `python -m benchmarks.finetune_memory`
prints, and the parameters it counts as trained for full fine-tuning are the ones training unfreezes."""

import argparse
import re
from pathlib import Path

import mlx_qwen3tts  # noqa: F401  (before mlx)
from mlx.utils import tree_flatten

from benchmarks import finetune_memory as memory
from mlx_qwen3tts.finetune.train import load_base
from fixture_checkpoints import checkpoint_dir

DOC = (Path(__file__).resolve().parent.parent / "docs" / "finetune.md").read_text(encoding="utf-8")


def rows(batch_size: int) -> list:
    return memory.table(argparse.Namespace(batch_size=batch_size, seconds=10.0, text_tokens=30, rank=8))


def test_the_docs_table_is_the_benchmarks():
    table = [line for line in DOC.splitlines() if line.startswith("|")]
    start = table.index(rows(4)[0])
    assert table[start:start + len(rows(4))] == rows(4)


def test_the_docs_batch_of_one_totals_are_the_benchmarks():
    totals = [float(re.search(r"\| ([\d.]+) GB \| [^|]+ \|$", row).group(1)) for row in rows(1)[2:]]
    said = re.search(r"`--batch-size 1` the totals fall to ([\d., and]+) GB \(0\.6B\) and ([\d., and]+) GB \(1\.7B\)",
                     " ".join(DOC.split()))
    numbers = [float(x) for x in re.findall(r"[\d.]+\d", said.group(1) + " " + said.group(2))]
    assert numbers == totals


def test_full_fine_tuning_trains_all_but_the_text_embedding(tmp_path):
    """What the table counts as trained for full fine-tuning (`shape_for`): on the tiny base-0b6 as `load_base`
    shapes it, every talker parameter but the text embedding."""
    talker = load_base(checkpoint_dir("base-0b6", tmp_path), "full").model.talker
    trained = sum(v.size for _, v in tree_flatten(talker.trainable_parameters()))
    total = sum(v.size for _, v in tree_flatten(talker.parameters()))
    assert trained == total - talker.model.text_embedding.weight.size
