"""primeval environments."""
