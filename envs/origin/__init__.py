"""Origin (Andrea Mainini, Matagot 2013) for 2 to 4 players."""
