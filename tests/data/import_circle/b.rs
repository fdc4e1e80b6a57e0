pub struct Bee;
pub fn make() -> crate::a::Ay {
    crate::a::Ay(Bee)
}
