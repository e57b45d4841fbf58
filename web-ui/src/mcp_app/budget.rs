//! How many messages of a View the host takes: a View that floods the page with messages
//! would otherwise keep it busy.

/// The most messages of a View taken in one second; more are dropped (a View that floods
/// the page with messages would otherwise keep it busy).
pub const MAX_MESSAGES_PER_SECOND: u32 = 200;

/// A View's message budget: [`MAX_MESSAGES_PER_SECOND`] in each second.
#[derive(Debug, Clone, Default)]
pub struct MessageBudget {
    second_started_ms: f64,
    taken: u32,
    dropped_before: bool,
}

/// What [`MessageBudget::take`] decides for one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Within the budget: handle it.
    Take,
    /// Over the budget, the first message dropped for this View: drop it and say so once.
    DropFirst,
    /// Over the budget: drop it.
    Drop,
}

impl MessageBudget {
    /// Counts a message arriving at `now_ms` (milliseconds, any monotonic origin).
    pub fn take(&mut self, now_ms: f64) -> Budget {
        // A new second (or a clock that went back, or no number at all).
        if !(0.0..1000.0).contains(&(now_ms - self.second_started_ms)) {
            self.second_started_ms = now_ms;
            self.taken = 0;
        }
        if self.taken < MAX_MESSAGES_PER_SECOND {
            self.taken += 1;
            return Budget::Take;
        }
        if self.dropped_before {
            Budget::Drop
        } else {
            self.dropped_before = true;
            Budget::DropFirst
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_gets_a_budget_of_messages_each_second() {
        let mut budget = MessageBudget::default();
        for _ in 0..MAX_MESSAGES_PER_SECOND {
            assert_eq!(budget.take(5_000.0), Budget::Take);
        }
        assert_eq!(budget.take(5_500.0), Budget::DropFirst);
        assert_eq!(budget.take(5_999.0), Budget::Drop);
        // A new second, a new budget; a later flood is not said again.
        assert_eq!(budget.take(6_000.0), Budget::Take);
        for _ in 1..MAX_MESSAGES_PER_SECOND {
            budget.take(6_100.0);
        }
        assert_eq!(budget.take(6_200.0), Budget::Drop);
        // A clock that goes back starts a second too.
        assert_eq!(budget.take(1.0), Budget::Take);
    }
}
