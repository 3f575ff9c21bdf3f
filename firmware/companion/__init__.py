"""The game controller: a pure state machine fed with frames, buttons and the time; no hardware."""
