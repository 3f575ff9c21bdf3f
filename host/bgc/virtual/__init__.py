"""The virtual hardware: a physical model of the board behind the modules the firmware imports."""
