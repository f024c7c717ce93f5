"""Measuring the server: the event loop's busiest steps and their CPU time, the latency
and message benchmarks, and the load test (``handfoot loadtest``)."""
