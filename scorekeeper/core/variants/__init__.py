"""core/variants"""
