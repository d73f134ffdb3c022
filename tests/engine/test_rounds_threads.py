"""The batches of a round are solved side by side on threads, all reading the values of the
round after through one RoundValues: it makes its float table once, and no thread may see it
half made (the whole games of Yatzy and Yahtzee failed now and then, an end "not allowed"
read as NaN where the table was being filled)."""

import threading

import numpy as np
import pytest

from mdp.engine.rounds.values import RoundValues


@pytest.mark.slow
def test_threads_reading_values_made_on_first_use_see_them_whole():
    keys = np.arange(0, 4_000_000, 2, dtype=np.int64)  # a table of 4 million entries to make
    for _ in range(5):
        values = RoundValues(keys, keys.astype(object) // 2)  # exact: made floats when asked
        wrong: list[int] = []
        start = threading.Barrier(8)

        def read(values=values, wrong=wrong, start=start):
            start.wait()
            got = values.values_of(np.array([keys[-1], -1, 0]), -np.inf, "test")
            if not (got[0] == keys[-1] // 2 and got[1] == -np.inf and got[2] == 0):
                wrong.append(1)

        threads = [threading.Thread(target=read) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert wrong == []
