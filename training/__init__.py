"""Agents, training and evaluation."""
