package engine

// Vars are the values an outcome carries; the tracker's message catalog
// builds sentences from them.
type Vars map[string]any

// Outcome is one thing the rules say happened, in order.
type Outcome struct {
	Kind string `json:"kind"`
	Vars Vars   `json:"vars,omitempty"`
}

// Outcome kinds. Each has a sentence in every message catalog.
const (
	KindSetup           = "setup"
	KindTestResult      = "test.result"
	KindTestPending     = "test.pending"
	KindRollFaces       = "roll.faces"
	KindFightEnemy      = "fight.enemy"     // enemy's damage to the survivor
	KindFightSurvivor   = "fight.survivor"  // survivor's hits on the enemy
	KindFightKilled     = "fight.killed"    // enemy killed: xp, caps, loot
	KindFightSurvived   = "fight.survived"  // enemy not killed, stays active
	KindFightRetreat    = "fight.retreat"   // not killed, retreat: turns facedown
	KindFightDiscarded  = "fight.discarded" // draw-and-fight token discarded
	KindFightReplace    = "fight.replace"   // replacement placed facedown
	KindAssistHurt      = "assist.hurt"
	KindAssistXP        = "assist.xp"
	KindDamage          = "survivor.damage"
	KindRads            = "survivor.rads"
	KindHeal            = "survivor.heal"
	KindXP              = "survivor.xp"
	KindCaps            = "survivor.caps"
	KindMutation        = "survivor.mutation"
	KindKilled          = "survivor.killed"
	KindRespawn         = "survivor.respawn"
	KindOut             = "survivor.out"
	KindActivationCard  = "activation.card"
	KindActivateType    = "activation.type"
	KindEnemyAttack     = "activation.attack"
	KindEnemyMoveTo     = "activation.move_to"
	KindEnemyAggressive = "activation.aggressive"     // moved into a survivor's space: fights at once
	KindAttackDropped   = "activation.attack_dropped" // a waiting attack can no longer happen
	KindEnemyMove       = "activation.move"
	KindEnemyIdle       = "activation.none"
	KindEnemyFlip       = "activation.flip"
	KindLoyalIcon       = "activation.loyal_icon"
	KindOpposingIcon    = "activation.opposing_icon"
	KindActivationRow   = "activation.effect"
	KindDeckReshuffled  = "deck.reshuffled"
	KindDeckEmpty       = "deck.empty"
	KindDeckRedrawn     = "deck.redrawn"
	KindPower           = "power.advance"
	KindPowerRetreat    = "power.retreat"
	KindLoyalPlus       = "power.loyal_plus"
	KindGoal            = "goal.completed"
	KindGoalsReached    = "goal.required_reached"
	KindGoalSurplus     = "goal.surplus"
	KindGameLost        = "game.lost"
	KindGameWon         = "game.won"
	KindRound           = "round.start"
	KindFirstPlayer     = "round.first_player"
	KindCamps           = "camps"
	KindEnemyAdded      = "enemy.added"
	KindEnemyRemoved    = "enemy.removed"
	KindEnemyCount      = "enemy.count"
	KindEnemyPlaced     = "enemy.placed"
	KindPowerSet        = "power.set"
	KindGoalsSet        = "goal.set"
)
