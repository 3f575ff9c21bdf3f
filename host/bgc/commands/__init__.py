"""bgc sub-commands: every module here is discovered by bgc.cli and registers one verb."""
