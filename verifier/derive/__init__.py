"""Derivation: values computed from the data (operand groups, targets, search) and the answer's own arithmetic."""
