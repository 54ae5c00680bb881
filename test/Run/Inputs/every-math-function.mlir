// Every math function fuse computes with the target's library, in f32 and f64
// (and floor and ceil, whose libdevice functions ask __nvvm_reflect).
func.func @f(%x: tensor<?xf32>, %d: tensor<?xf64>) -> (tensor<?xf32>, tensor<?xf64>) {
  %a = fuse.sqrt %x : tensor<?xf32>
  %b = fuse.exp %a : tensor<?xf32>
  %c = fuse.log %b : tensor<?xf32>
  %e = fuse.tanh %c : tensor<?xf32>
  %f = fuse.sin %e : tensor<?xf32>
  %g = fuse.cos %f : tensor<?xf32>
  %h = fuse.erf %g : tensor<?xf32>
  %i = fuse.pow %h, %x : tensor<?xf32>
  %j = fuse.rsqrt %i : tensor<?xf32>
  %k = fuse.sigmoid %j : tensor<?xf32>
  %l = fuse.mul %k, %x : tensor<?xf32>
  %m = fuse.ceil %l : tensor<?xf32>
  %n = fuse.floor %l : tensor<?xf32>
  %o = fuse.add %m, %n : tensor<?xf32>
  %da = fuse.sqrt %d : tensor<?xf64>
  %db = fuse.exp %da : tensor<?xf64>
  %dc = fuse.log %db : tensor<?xf64>
  %de = fuse.tanh %dc : tensor<?xf64>
  %df = fuse.sin %de : tensor<?xf64>
  %dg = fuse.cos %df : tensor<?xf64>
  %dh = fuse.erf %dg : tensor<?xf64>
  %di = fuse.pow %dh, %d : tensor<?xf64>
  %dj = fuse.rsqrt %di : tensor<?xf64>
  %dk = fuse.sigmoid %dj : tensor<?xf64>
  %dl = fuse.mul %dk, %d : tensor<?xf64>
  %dm = fuse.ceil %dl : tensor<?xf64>
  %dn = fuse.floor %dl : tensor<?xf64>
  %do = fuse.add %dm, %dn : tensor<?xf64>
  return %o, %do : tensor<?xf32>, tensor<?xf64>
}
