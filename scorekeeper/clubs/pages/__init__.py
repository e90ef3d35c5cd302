"""The club pages by job, one blueprint (clubs.<view>)."""
