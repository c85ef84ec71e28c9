"""The decode loop: rows of requests stepped together a frame at a time (`decode_loop`, `rows`), their
batch state (`state`, `row_store`), graphs (`graphs`), prompts (`prompt`), sampling (`sampling`), text
tracks (`text_track`), and the engine that runs them for many concurrent requests (`engine`)."""
