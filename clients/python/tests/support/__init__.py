"""What the tests run beside the client: the service itself, a fault proxy, a webhook receiver."""
