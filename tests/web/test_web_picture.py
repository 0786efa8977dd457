"""The board picture: the scene model (lines from the rules, pieces, lights, last turn, flip) and
its SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core import Board, find_variant
from morris.sim import Simulation
from morris.web.picture import (
    HIT_RADIUS,
    build_scene,
    point_xy,
    render_svg,
    scene_of_position,
    scene_of_snapshot,
)
from morris_device import BLINK_TIMING, POINT_NAMES

SVG = "{http://www.w3.org/2000/svg}"


def _links(rules_name: str) -> int:
    rules = find_variant(rules_name).variant
    return sum(mask.bit_count() for mask in rules.neighbours) // 2


def test_lines_follow_the_rules_links_with_the_diagonals_of_twelve() -> None:
    standard = scene_of_position(Board().position())
    assert len(standard.lines) == _links("standard") == 32
    twelve_cls = find_variant("twelve")
    twelve = scene_of_position(twelve_cls().position(), "twelve")
    assert len(twelve.lines) == _links("twelve") == 40
    a7, b6 = point_xy("a7"), point_xy("b6")
    diagonal = (*a7, *b6)
    assert diagonal in twelve.lines and diagonal not in standard.lines


def test_every_point_is_a_tap_target_big_enough_for_a_finger() -> None:
    svg = render_svg(scene_of_position(Board().position()))
    root = ET.fromstring(svg)
    hits = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "hit"]
    assert sorted(c.get("data-point") for c in hits) == sorted(POINT_NAMES)
    # The page draws the board at least 330 px wide (a phone's width): 2 * r >= 44 px there.
    size = float(root.get("viewBox", "").split()[2])
    assert 2 * HIT_RADIUS * 330 / size >= 44


def test_pieces_lights_and_the_last_turn_are_drawn() -> None:
    board = Board()
    for move in ("d6", "f4", "d5"):
        board.push_notation(move)
    pieces = {"d6": "white", "f4": "black", "d5": "white"}
    scene = build_scene(
        board.rules, pieces, lights={"d7": "on", "g7": "slow", "a1": "fast"}, last_move="d5"
    )
    svg = render_svg(scene)
    root = ET.fromstring(svg)
    points = {g.get("data-point"): g for g in root.iter(f"{SVG}g") if g.get("class") == "point"}
    assert points["d6"].get("data-piece") == "white" and points["f4"].get("data-piece") == "black"
    assert points["d5"].get("data-mark") == "to"
    for name, signal in (("d7", "on"), ("g7", "slow"), ("a1", "fast"), ("b4", "off")):
        ring = next(c for c in points[name] if "light" in (c.get("class") or ""))
        assert ring.get("class") == f"light {signal}"


def test_blinks_have_the_devices_periods_and_phase() -> None:
    scene = build_scene(
        Board().rules, {}, lights={"g7": "slow", "a1": "fast"}, ages={"g7": 1.3, "a1": 0.3}
    )
    svg = render_svg(scene)
    for signal, (period, lit) in BLINK_TIMING.items():
        assert f"blink-{signal.value} {period:g}s" in svg
        assert f"{100 * lit / period:g}%{{opacity:.08}}" in svg
    # 1.3 s into a 1 s period is 0.3 s into it; 0.3 s into a 0.25 s period is 0.05 s.
    assert re.search(r'class="light slow"[^>]*animation-delay:-0\.300s', svg)
    assert re.search(r'class="light fast"[^>]*animation-delay:-0\.050s', svg)


def test_flip_turns_the_board_half_round() -> None:
    plain = scene_of_position(Board().position())
    flipped = scene_of_position(Board().position(), flip=True)
    where = {p.name: (p.x, p.y) for p in plain.points}
    turned = {p.name: (p.x, p.y) for p in flipped.points}
    assert turned["a7"] == where["g1"] and turned["d6"] == where["d2"]
    assert flipped.flipped and 'class="board flipped"' in render_svg(flipped)


def test_the_snapshots_scene_shows_the_game() -> None:
    with Simulation(mode="referee") as sim:
        sim.place("d6")
        sim.wait(1.0)
        scene = scene_of_snapshot(sim.controller.snapshot(sim.now), sim.now)
    by_name = {p.name: p for p in scene.points}
    assert by_name["d6"].piece == "white" and by_name["d6"].mark == "to"
    assert "black to move" in scene.title


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 500), max_size=30))
def test_any_position_draws_as_well_formed_svg_with_its_pieces(choices: list[int]) -> None:
    board = Board()
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    svg = render_svg(scene_of_position(board.position()))
    root = ET.fromstring(svg)
    drawn = {
        g.get("data-point"): g.get("data-piece")
        for g in root.iter(f"{SVG}g")
        if g.get("data-piece")
    }
    assert drawn == {name: ("white" if c else "black") for name, c in board.pieces().items()}
