package card
