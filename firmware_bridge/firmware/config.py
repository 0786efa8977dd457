"""Wiring of the board, flashed to the Pico as ``config.py``. Edit to match your board.

Pin numbers are the Pico's GPIO numbers (GPn), not its physical pin numbers; see README.md.
"""

CONFIG = {
    # 3x8 sensor matrix: point index = ring * 8 + position (morris_device.POINT_NAMES order).
    "ring_pins": (2, 3, 4),  # outputs, driven one at a time
    "position_pins": (6, 7, 8, 9, 10, 11, 12, 13),  # inputs
    # True: the selected ring is driven high, positions pulled down (diode anode on the ring side).
    # False: the selected ring is driven low, positions pulled up.
    "sensor_active_high": True,
    "scan_interval_ms": 2,
    "debounce_ms": 30,  # a sensor must read the same for this long before it counts
    # Point LEDs then status LEDs (turn, thinking, error, game_over) on one chain.
    "led_driver": "ws2812",  # "ws2812" or "hc595"
    "ws2812_pin": 16,
    "hc595_pins": (17, 18, 19),  # data (SER), clock (SRCLK), latch (RCLK)
    "status_leds": 4,
    # RGB colours per signal on a WS2812 chain: on, slow blink, fast blink.
    "colors": {1: (0, 60, 0), 2: (60, 36, 0), 3: (80, 0, 0)},
    # Buttons to ground (internal pull-ups): new, takeback, hint, mode.
    "button_pins": (20, 21, 22, 26),
    "button_debounce_ms": 20,
    "link_led_pin": "LED",  # the Pico's own LED: lit while the Pi is heard; None for none
    "heartbeat_ms": 500,
    "host_timeout_ms": 3000,  # no frame from the Pi this long: all LEDs off until it returns
}
