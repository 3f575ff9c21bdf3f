"""The board: its sensing geometry and drawing, the virtual board (virtual/, the hardware the firmware
cannot tell from the real one), the simulator that runs the firmware on it, its automated players
and chouette evenings, and scenario scripts."""
