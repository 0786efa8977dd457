"""The terminal UI of ``morris sim`` (Textual): the simulated board drawn with its lights."""
