"""Seeds, one rule (`derived_seed`) for everything spoken from one seed: piece i of a split text, a long-form
segment, a request spoken again after a runaway (see `plan`). Kept apart from `plan` so that what only needs
the rule (long-form's segment seeds) loads no model code."""

from typing import Optional

import numpy as np

SEED_SPACE = 2**64
RETRY = 1  # the attempt a runaway is spoken again as


def derived_seed(seed: int, index: int, attempt: int = 0) -> int:
    """The seed of item `index` (a piece, a segment) spoken from `seed`, at its `attempt`: the same for the same
    three, unrelated between them (numpy's SeedSequence mixing)."""
    state = np.random.SeedSequence([seed % SEED_SPACE, index, attempt]).generate_state(2, np.uint32)
    return int(state[0]) << 32 | int(state[1])


def piece_seed(seed: Optional[int], index: int) -> Optional[int]:
    """Piece `index`'s seed: the first keeps the request's, the others are derived from it (None: drawn)."""
    return seed if seed is None or index == 0 else derived_seed(seed, index)


def retry_seed(seed: int) -> int:
    """The seed a request whose speech ran away (spoken with `seed`) is spoken again with."""
    return derived_seed(seed, 0, RETRY)


def check_seed(seed: int, attempt: int) -> int:
    """The seed a piece spoken with `seed` is made again with at `attempt` (1, 2, ...) after `--check` heard it far
    from its text: attempts after the runaway's, so the two never share a seed."""
    return derived_seed(seed, 0, RETRY + attempt)
