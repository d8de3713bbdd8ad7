//! Sealing the waiting anew (SPEC §8): a company just imported carries another
//! company's seals on its waiting approvals, or seals whoever edited the file made up;
//! each is sealed again with this company's key, and the boss sees it in the queue
//! before deciding it.

use cubicle_store::approval as q;

use super::{ApprovalError, Approvals};

impl Approvals {
    /// Seals every waiting approval anew with this company's key: for a company just
    /// imported, whose rows carry another company's seals, or seals whoever edited the
    /// file made up. The boss sees each one here before deciding it. Returns how many.
    pub async fn reseal_waiting(&self) -> Result<usize, ApprovalError> {
        let mut n = 0;
        for row in q::all_waiting(&self.db).await? {
            let seal = self.seal.seal(&row.tool, &row.args).await?;
            if q::reseal_waiting(&self.db, row.id, &seal).await? {
                n += 1;
            }
        }
        Ok(n)
    }
}
