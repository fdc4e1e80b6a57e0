use crate::b::Bee;
pub struct Ay(pub Bee);
