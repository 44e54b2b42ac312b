"""The API's operations by group, each as a sync class and an async one of the same surface."""
