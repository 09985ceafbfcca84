"""Tools for env authors, in the manner of ``pettingzoo.test``: random legal play, fuzzing,
golden transcripts, the env benchmark and the behaviour fingerprint."""
