"""Running the daemon as a service: talking to systemd and publishing the service's status."""
