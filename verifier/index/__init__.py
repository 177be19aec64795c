"""The tool data: its tree of leaves and records, and what the data says of its figures (units, scales, periods, percent units, names). Only this package reads the tree's arrays."""
