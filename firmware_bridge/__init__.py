"""The board behind a microcontroller, linked to the Pi over USB serial."""
