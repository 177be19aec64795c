"""Accuracy and speed benchmarks; each prints the figures BENCHMARKS.md quotes."""
