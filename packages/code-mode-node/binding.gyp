{
  "targets": [
    {
      "target_name": "malloc_threshold",
      "sources": ["native/malloc-threshold.c"]
    }
  ]
}
