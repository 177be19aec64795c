"""The tree of nodes and leaves: paths, children in document order, the leaf limit and
the scales a printed table states for its cells."""

from decimal import Decimal

import pytest

from verifier import LimitError
from verifier.index.tree import Tree


def _record() -> tuple[Tree, int, int, int]:
    """{"a b": {"it's": 1, "x": 2}} built by hand, siblings in reverse as the walk adds them."""
    tree = Tree(max_leaves=10)
    root = tree.node(-1, None)
    obj = tree.node(root, "a b")
    x = tree.node(obj, "x")
    quoted = tree.node(obj, "it's")
    tree.add_leaf(0, x, "x", "2")
    tree.add_leaf(0, quoted, "it's", "1")
    return tree, root, obj, quoted


def test_paths_quote_keys_that_are_no_identifiers():
    tree, root, obj, quoted = _record()
    assert tree.path_of_node(root) == "$"
    assert tree.path_of_node(quoted) == "$['a b']['it\\'s']"
    assert tree.path_of_node(tree.leaves[0].node) == "$['a b'].x"
    where = tree.node(obj, "and")  # a JSONPath keyword is quoted too
    assert tree.path_of_node(tree.node(where, 3)) == "$['a b']['and'][3]"


def test_children_come_in_document_order():
    tree, _, obj, _ = _record()
    assert [tree.leaves[i].raw for i in tree.children_leaves(obj)] == ["1", "2"]
    assert tree.children_leaves(12345) == []


def test_a_leaf_past_the_limit_is_a_limit_error():
    tree = Tree(max_leaves=1)
    node = tree.node(-1, None)
    tree.add_leaf(0, node, None, "1")
    with pytest.raises(LimitError):
        tree.add_leaf(0, node, None, "2")


def test_a_tables_stated_scale_reaches_its_rows_cells_except_percentages_and_unscaled_ones():
    tree = Tree(max_leaves=10)
    row = tree.node(tree.node(-1, None), 0)
    cells = [tree.node(row, c) for c in range(3)]
    amount, share, price = (tree.add_leaf(0, n, None, raw) for n, raw in zip(cells, ["12", "4%", "9.5"]))
    assert tree.stated_scale(amount) is None  # no table states a scale
    tree.table_scales[row] = Decimal("1E+6")
    tree.unscaled_cells.add(cells[2])
    assert tree.stated_scale(amount) == Decimal("1E+6")
    assert tree.stated_scale(share) is None
    assert tree.stated_scale(price) == 1
