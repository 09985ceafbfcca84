"""Single-agent views and other wrappers over the AEC environments."""
