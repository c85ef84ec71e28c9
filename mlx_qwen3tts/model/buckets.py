"""Prompt lengths in a few fixed shapes (buckets), on the branches Metal and CUDA take.

On a GPU every new shape of a matmul or an attention is work of its own the first time it is met (CUDA:
cuBLASLt plans, cuDNN attention graphs; Metal: pipelines), so a prompt whose length the process has not
seen paid it on its way to first audio. There the talker's prefill and its text projection run in the
lengths of `BUCKETS`: the input is padded at the end to the smallest bucket that holds it (past the
largest, to a multiple of it), causal attention (and, for a piece after earlier ones, an explicit mask)
keeps every real position from the padding, and only the real positions' outputs are kept, so the
codes are those of the unpadded prompt. Warm-up (`DecodeLoop.warm`) runs every bucket once.

On the CPU branches no shape costs more the first time, and padding costs its compute: there `active()`
is False (`ENABLED` forces either way).
"""

import math
from typing import Iterator, Optional, Tuple

import mlx.core as mx

from ..backend import cpu_paths

# Half-octaves (each 1.5x or 1.33x the one before: a prompt is padded by at most half its positions, by
# 1.2x on average) from 16 up to 2048: a prompt of the server's --max-input-chars (4096) of English prose
# spoken whole is about 860 positions, with a cloned voice's reference a few hundred more. Past it (4096
# characters of Chinese spoken whole: about 2,350) a prompt is padded to a multiple of 2048, a shape warm-up
# does not run: its first use is paid once, beside a long prefill. What the padding costs, measured on this
# CPU's forced Metal/CUDA branches (octaves below 256 cost more): docs/benchmarks.md, "Prefill in buckets".
BUCKETS = (16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048)
# Rows times bucket of one batched prefill pass at most: prompts prefilled together go in passes of a power
# of two rows within it, so their shapes are bounded too (and so is warm-up: every bucket at every such
# row count; a pass of 1,024 positions already keeps a GPU busy).
PASS_POSITIONS = 1024
# None: buckets where the Metal/CUDA branches are taken (not `cpu_paths()`); True / False: force either.
ENABLED: Optional[bool] = None


def active() -> bool:
    """Whether prompts are prefilled in buckets."""
    return ENABLED if ENABLED is not None else not cpu_paths()


def bucket(n: int) -> int:
    """The length `n` positions are padded to: the smallest bucket that holds them, past the largest a
    multiple of it."""
    for size in BUCKETS:
        if n <= size:
            return size
    return math.ceil(n / BUCKETS[-1]) * BUCKETS[-1]


def padded(x: mx.array, length: int, axis: int = 1) -> mx.array:
    """`x` padded with zeros at the end of `axis` to `length`."""
    widths = [(0, 0)] * x.ndim
    widths[axis] = (0, length - x.shape[axis])
    return mx.pad(x, widths) if length > x.shape[axis] else x


def pass_rows(rows: int, length: int) -> int:
    """The rows of the next batched pass of `rows` prompts padded to bucket `length`: the largest power of two
    within both `rows` and `PASS_POSITIONS` (at least one)."""
    fit = max(min(rows, PASS_POSITIONS // length), 1)
    return 1 << (fit.bit_length() - 1)


def batch_sizes(max_rows: int, length: int) -> Iterator[int]:
    """Every row count `pass_rows` gives for prompts padded to `length`, with at most `max_rows` of them."""
    size, top = 1, pass_rows(max_rows, length)
    while size <= top:
        yield size
        size *= 2


def shapes(max_rows: int) -> Iterator[Tuple[int, int, int, int]]:
    """Every prefill pass a batch of at most `max_rows` rows meets, as (rows, positions, offset, capacity)
    (see `PrefillKVCache.make_mask`): prompts alone or together from their start (causal, the capacity the
    positions' bucket), and a prompt's pieces (one row): each bucket of positions against each capacity
    that holds it, from its start and after earlier pieces."""
    for length in BUCKETS:
        for rows in batch_sizes(max_rows, length):
            yield rows, length, 0, length
    for capacity in BUCKETS:
        for length in (b for b in BUCKETS if b < capacity):
            yield 1, length, 0, capacity
        yield 1, capacity - 1, 1, capacity
