"""bench.timeline lines calls up by their notes, whichever process took them."""

from bench.timeline import LEGS, Marks, legs

EDGES = ("C0", "C1", "D1", "D2", "D3", "D4", "C4", "C5")


def test_each_call_is_lined_up_from_notes_of_both_processes_in_any_order():
    client = [(0, "C0"), (10, "C1"), (90, "C4"), (100, "C5"), (1000, "C0"), (1020, "C1"), (1180, "C4"), (1200, "C5")]
    device = [(30, "D1"), (40, "D2"), (70, "D3"), (80, "D4"), (1050, "D1"), (1060, "D2"), (1150, "D3"), (1160, "D4")]
    durations = legs([*device, *client])  # as the bench reads them: the device's file after its own
    assert durations["app hop: frame out, app process, reply in"] == [0.03, 0.09]
    assert durations["client to the device's handler (gRPC)"] == [0.02, 0.03]
    assert round(sum(values[0] for values in durations.values()), 6) == 0.1  # the legs add up to the call


def test_a_call_missing_an_edge_is_left_out_rather_than_joined_to_the_next():
    noted = [(0, "C0"), (5, "C1"), (9, "C4"), (10, "C5")]  # refused before the device's handler
    noted += [(100 + i, edge) for i, edge in enumerate(EDGES)]
    assert all(values == [0.001] for values in legs(noted).values())


def test_marks_note_around_a_call_even_when_it_raises():
    marks = Marks()

    def fails():
        raise ValueError("no")

    wrapped = marks.around(fails, "D2", "D3")
    try:
        wrapped()
    except ValueError:
        pass
    assert [name for _, name in marks.noted] == ["D2", "D3"]
    assert len(LEGS) == len(EDGES) - 1
