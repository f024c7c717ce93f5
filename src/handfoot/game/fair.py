"""Fair deals: a cryptographic generator keyed by a secret, and commitments to each deal.

A served game's chance comes from a secret of 256 bits (:func:`new_secret`) through
:class:`KeyedRandom`, a ``random.Random`` whose bits are HMAC-SHA-256 of the key and a
counter: nothing a player sees (their cards, the order of the stock as it is drawn)
helps to find the key or to predict another card. Every hand is dealt by a child
generator keyed by 256 bits of its parent, so the deal, every reshuffle and every
high-card draw of the game come from the secret.

When a hand is dealt, every seat is shown a commitment to its card order
(:func:`commitment`: SHA-256 of the order and a salt); the record of the finished game
reveals the salts, and :func:`check_commitment` (``handfoot replay``) proves that the
cards dealt were the cards committed to before anyone played.

>>> r = KeyedRandom(bytes(32))
>>> r.getrandbits(16) == KeyedRandom(bytes(32)).getrandbits(16)
True
>>> c = commitment(["AS", "7H"], "00ff", [2, 3])
>>> check_commitment(["AS", "7H"], "00ff", c, [2, 3])
True
>>> check_commitment(["7H", "AS"], "00ff", c, [2, 3])
False
>>> check_commitment(["AS", "7H"], "00ff", c, [2, 4])
False
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from typing import Any

SECRET_BYTES = 32  #: 256 bits


def new_secret() -> str:
    """A fresh secret for a game, as hex (256 bits from the operating system)."""
    return secrets.token_hex(SECRET_BYTES)


class KeyedRandom(random.Random):
    """``random.Random`` whose every bit comes from HMAC-SHA-256(key, counter).

    ``shuffle``, ``randint``, ``choice`` and the rest draw on :meth:`getrandbits`, so they
    are as unpredictable as the key is secret. Pickles (for a process pool) with its
    position in the stream."""

    _key: bytes
    _counter: int
    _buffer: bytes

    def __init__(self, key: bytes | str | None = None) -> None:
        super().__init__(key)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if a is None:
            key = secrets.token_bytes(SECRET_BYTES)
        elif isinstance(a, str):
            key = bytes.fromhex(a)
        elif isinstance(a, bytes | bytearray):
            key = bytes(a)
        else:
            raise TypeError("a KeyedRandom is keyed by bytes or hex text")
        if len(key) < 16:
            raise ValueError("the key must have at least 128 bits")
        self._key, self._counter, self._buffer = key, 0, b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.digest(self._key, self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._bytes(n), "big") >> (n * 8 - k)

    def random(self) -> float:
        return self.getrandbits(53) * (2.0 ** -53)

    def randbytes(self, n: int) -> bytes:
        return self._bytes(n)

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._counter, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._counter, self._buffer = state

    def child(self) -> KeyedRandom:
        """A generator keyed by the next 256 bits of this one (one per hand)."""
        return KeyedRandom(self._bytes(SECRET_BYTES))


def hand_salt(secret: str, hand: int) -> str:
    """The salt of hand ``hand``'s commitment (from the game's secret: the same after a
    restart; revealed with the record once the game is over)."""
    return hmac.digest(bytes.fromhex(secret), b"salt:%d" % hand, "sha256").hex()


def seeded_salt(seed: int, hand: int) -> str:
    """The salt of a game dealt from an explicit seed (tests, replays): no secret."""
    return hashlib.sha256(b"seed:%d:%d" % (seed, hand)).hexdigest()


#: the commitments' scheme: 2 covers the card order and the exact-grab counts; 1 (records
#: of older servers, no ``v``) the card order alone
SCHEME = 2


def commitment(order: Sequence[str], salt: str,
               grabs: Sequence[int] | None = None) -> str:
    """SHA-256, as hex, of the hand's card order (card codes joined by spaces), a
    newline, then (scheme 2, ``grabs`` given) the exact-grab counts (whole numbers
    joined by spaces; empty without them) and a newline, then the salt (hex)."""
    text = " ".join(order) + "\n"
    if grabs is not None:
        text += " ".join(str(g) for g in grabs) + "\n"
    return hashlib.sha256((text + salt).encode()).hexdigest()


def check_commitment(order: Sequence[str], salt: str, digest: str,
                     grabs: Sequence[int] | None = None) -> bool:
    return hmac.compare_digest(commitment(order, salt, grabs), digest)
