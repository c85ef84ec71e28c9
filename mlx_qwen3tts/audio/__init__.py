"""Audio in and out: reference clips read for cloning, chunks decoded while frames come, output formats
encoded, live playback."""
