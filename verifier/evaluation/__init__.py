"""Measuring the verifier: labelled sets, the naive baseline, ``verifier eval`` and ``verifier judge-eval``."""
