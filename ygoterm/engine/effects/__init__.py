"""The effect vocabulary at work: what each `do:`/`cost:` verb of a card file does, how a chain
link resolves, whether an effect could do anything now, Special/Fusion/Ritual Summons by effect,
and the named Python handlers. Layer 4: imports `board`, `state`, `core`."""
