"""Talking to a Pico: finding and connecting to one (mpremote's transport), its serial events in
words, the virtual Pico on a pseudo-terminal and its guest, running code under a real MicroPython
(the UNIX port), and the MicroPython libraries the firmware installs."""
