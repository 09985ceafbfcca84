"""Experiment configurations (YAML), shipped as package data."""
