"""Types of the C inner loop of the search (morris/engine/_native.c, native/search.c)."""

from collections.abc import Callable, Sequence

def configure(**constants: int) -> None: ...
def constants() -> dict[str, int]: ...

class Sectors:
    @property
    def probes(self) -> int: ...
    @property
    def misses(self) -> int: ...
    def __init__(
        self,
        *,
        images: bytes,
        sectors: Sequence[tuple[int, int, bytes, int, int, int, int]],
        fetch: Callable[[int, int], object],
        cache_bytes: int,
    ) -> None: ...
    def code(self, mover: int, other: int, /) -> int | None: ...
    def cached(self) -> int: ...

class Core:
    nodes: int
    check_at: int
    @property
    def tt_entries(self) -> int: ...
    def __init__(
        self,
        *,
        neighbours: Sequence[int],
        mill_masks: Sequence[int],
        mills_through: Sequence[Sequence[int]],
        layers: Sequence[int],
        pieces_per_side: int,
        flying: bool,
        threefold: bool,
        limit: int,
        full_board_is_draw: bool,
        zp: Sequence[Sequence[int]],
        zh: Sequence[Sequence[int]],
        zside: int,
        zn: Sequence[int],
        path: Sequence[int],
        root_index: int,
        check: Callable[[int], int],
        probe: Callable[[int, int, int], tuple[int, int] | None] | None,
        table_cover: Sequence[int],
        tt_size: int,
        in_play: int = ...,
        move_while_placing: bool = False,
        remove_from_mills: bool = False,
        double_mill_removes_two: bool = False,
        return_mill_barred: bool = False,
        weights: Sequence[int] | None = None,
        sector_cover: Sequence[int] | None = None,
        sectors: Sectors | None = None,
    ) -> None: ...
    def root_move(
        self,
        us: int,
        them: int,
        uh: int,
        th: int,
        colour: int,
        key: int,
        nrc: int,
        depth: int,
        alpha: int,
        beta: int,
        irreversible: bool,
        bar: int = 0,
        obar: int = 0,
        /,
    ) -> int: ...
    def evaluate(self, us: int, them: int, uh: int, th: int, /) -> int: ...
    def generate(
        self, us: int, them: int, uh: int, bar: int = 0, /
    ) -> tuple[list[int], list[int]]: ...
    def tt_get(self, key: int, /) -> tuple[int, int, int, int] | None: ...
    def release(self) -> None: ...
